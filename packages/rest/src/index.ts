export { parseTemplate, type PathTemplate, type PathMatch, type Segment } from './template.js';
export { restRoutes, routeTable, type RestMeta, type RestRoute, type RouteMatch, type RouteTable } from './routes.js';
export { queryInput } from './operation.js';
export { httpLocation, NOT_AN_OBJECT_MESSAGE, type ZodFieldErrors } from './input.js';
export { badText, duplicateKeyPath, repeatsAKey, nestingDepth, textErrors, queryTextErrors, JSON_MEDIA_TYPE, MAX_JSON_DEPTH, NUL_MESSAGE, SURROGATE_MESSAGE, type FieldError } from './text.js';
export { canonicalUrl, restDispatcher, type RestDispatcher, type RestOptions, type RestRefusal } from './dispatch.js';
export { bodyTag, noneMatchHits } from './conditional.js';
export { KEPT_BYTES_PER_OWNER, keptAnswers, type KeptAnswers } from './kept-answers.js';
