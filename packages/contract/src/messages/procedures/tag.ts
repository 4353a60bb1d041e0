/** The OpenAPI tag of the Messages endpoints. */
export const TAG = 'Messages';
