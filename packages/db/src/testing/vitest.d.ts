declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}
export {};
