/** Entry point of the catalog module: what other modules, the flows and the HTTP contract may use. Everything else in catalog/ is private. */
export { type CategoryImport, type TermImport, ZCategoryImport, ZTermImport } from './catalog-import.schema.js';
export { ZCategoryList, ZGetTermInput, ZListCategoriesInput, ZListTermsInput, ZTerm, ZTermList } from './catalog.schema.js';
export { importCategories, importTerms } from './commands/import-catalog.js';
export { listCategories } from './commands/list-categories.js';
export { getTerm, listTerms } from './commands/list-terms.js';
