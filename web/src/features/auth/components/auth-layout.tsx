import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../../components/brand/logo';
import { CheckIcon } from '../../../components/icons';
import './auth.css';

/** The frame of the sign-in and sign-up screens: brand panel on wide screens, the form card everywhere. */
export function AuthLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className="auth">
      <aside className="auth__panel" aria-hidden="true">
        <Logo size={40} tone="light" />
        <p className="auth__panel-title">La plataforma de comercio electrónico para Guatemala</p>
        <ul className="auth__panel-list">
          {['Tu tienda en línea con su propia dirección', 'Pedidos directo a tu WhatsApp', 'Punto de venta e inventario', '14 días gratis, sin costo de instalación'].map((t) => (
            <li key={t}>
              <CheckIcon size={18} />
              {t}
            </li>
          ))}
        </ul>
      </aside>
      <main className="auth__main">
        <div className={`auth__card${wide ? ' auth__card--wide' : ''}`}>
          <Link to="/" className="auth__logo" aria-label="Tiendita, ir al inicio">
            <Logo size={34} />
          </Link>
          <p className="auth__tagline">La plataforma de comercio electrónico para Guatemala</p>
          {children}
        </div>
      </main>
    </div>
  );
}
