/**
 * A link path at the root (a HOSTED_CHECKOUT_URL without `{orgSlug}`): the token in the link names
 * the store; the page asks the server which one and moves to `/hosted/<slug>/…`.
 */
export function StoreResolver() {
  return (
    <main id="main" className="page">
      <h1>Opening your store…</h1>
    </main>
  );
}
