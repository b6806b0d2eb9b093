import { Link } from 'react-router';

/** 'Tienda No Encontrada' and 'Producto no encontrado': what happened and a way back. */
export function NotFoundPage({ title, hint, backTo, backLabel }: { title: string; hint: string; backTo: string; backLabel: string }) {
  return (
    <main className="shop-notfound">
      <p className="shop-notfound__code" aria-hidden="true">
        404
      </p>
      <h1>{title}</h1>
      <p>{hint}</p>
      <Link className="shop-button shop-button--primary" to={backTo}>
        {backLabel}
      </Link>
    </main>
  );
}
