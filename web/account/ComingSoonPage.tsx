// A plain page for routes whose feature arrives in a later issue (/billing, /update-payment):
// says so and links back to the studio, instead of a 404.

import { Link } from "react-router-dom";

export function ComingSoonPage({ title, text }: { title: string; text: string }) {
  return (
    <main id="main" className="studio">
      <section className="panel">
        <h1>{title}</h1>
        <p>{text}</p>
        <Link className="button" to="/app">Back to App</Link>
      </section>
    </main>
  );
}
