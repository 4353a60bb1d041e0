/**
 * The storefront demo flow through a client generated from /v1/openapi.json (README, "Use from any
 * language"): the marketplace, its categories, a search, a sign-up, a draft listing and favourites.
 * Every path, parameter and body is type-checked against the generated `paths`:
 *
 *   npx openapi-typescript "$HM_API_URL/v1/openapi.json" -o sdk-demo/generated/schema.d.ts
 *   npx tsc -p sdk-demo && HM_API_URL=… HM_SECRET_KEY=sk_test_… node sdk-demo/demo.ts
 *
 * It prints one JSON line of what it saw, and exits non-zero at the first unexpected answer.
 */
import createClient from 'openapi-fetch';
import type { paths } from './generated/schema.d.ts';

const apiUrl = process.env.HM_API_URL ?? 'http://localhost:4000';
const secretKey = process.env.HM_SECRET_KEY;
if (!secretKey) throw new Error('Set HM_SECRET_KEY to a secret key (sk_test_…) of the marketplace.');

const auth = { Authorization: `Bearer ${secretKey}` };
const api = createClient<paths>({ baseUrl: `${apiUrl}/v1`, headers: auth });

/** The body of a successful answer, or an Error carrying the problem's `detail`. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) throw new Error(`${what}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

const marketplace = ok(await api.GET('/marketplace'), 'marketplace');
const categories = ok(await api.GET('/categories'), 'categories').items;
const search = ok(await api.GET('/listings', { params: { query: { limit: 5, sort: 'newest' } } }), 'search');

const email = `sdk-demo-${Date.now()}@example.com`;
const signedIn = ok(await api.POST('/users', { body: { email, password: 'a demo passphrase', first_name: 'Demo' } }), 'sign-up');
// The signed-in user's calls: the session is a security scheme (a header), so it goes with the client.
const me = createClient<paths>({ baseUrl: `${apiUrl}/v1`, headers: { ...auth, 'X-User-Session': signedIn.session.token } });

const currency = marketplace.currencies[0]!;
const draft = ok(
  await me.POST('/me/listings', {
    body: {
      title: 'Teak side table',
      price: { amount: 120000, currency },
      ...(categories[0] ? { category_id: categories[0].id } : {}),
      location: { country: 'SE', city: 'Stockholm' },
      delivery: { pickup: true },
    },
  }),
  'create a listing',
);

// Favourites take listings on sale: the newest one in the search.
const favourite = search.items[0];
if (favourite) {
  const saved = await me.PUT('/me/favorites/{id}', { params: { path: { id: favourite.id } } });
  if (saved.response.status !== 204) throw new Error(`save a favourite: ${saved.response.status} ${JSON.stringify(saved.error)}`);
}
const favourites = ok(await me.GET('/me/favorites', { params: { query: { limit: 10 } } }), 'favourites');

console.log(
  JSON.stringify({
    marketplace: marketplace.slug,
    categories: categories.length,
    search: { total: search.total, first: favourite?.title ?? null },
    user: signedIn.user.email,
    listing: { id: draft.id, status: draft.status, price: draft.price },
    favourites: favourites.items.map((f) => f.id),
  }),
);
