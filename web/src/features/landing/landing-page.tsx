import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../components/brand/logo';
import {
  BoxIcon,
  ChartIcon,
  ChatIcon,
  CheckIcon,
  HeadsetIcon,
  PhoneIcon,
  PinIcon,
  ReceiptIcon,
  ShieldIcon,
  StoreIcon,
} from '../../components/icons';
import { PUBLIC_PATHS } from '../../app/paths';
import { HeroCarousel } from './hero-carousel';
import { CONTACT_EMAIL, FEATURES, MARKETING_STATS, SALES_EMAIL, SUPPORT_EMAIL, TRIAL_DAYS, mailto } from './landing-content';
import './landing.css';

const FEATURE_ICONS: Record<(typeof FEATURES)[number]['key'], ComponentType<{ size?: number }>> = {
  catalogue: StoreIcon,
  whatsapp: ChatIcon,
  pos: ReceiptIcon,
  inventory: BoxIcon,
  reports: ChartIcon,
  mobile: PhoneIcon,
};

/** The public landing page of spec 000 §2. */
export function LandingPage() {
  return (
    <div className="landing">
      <TopBar />
      <main id="contenido">
        <HeroCarousel />
        <Features />
        <StatsBand />
        <ClosingCta />
        <TrustBadges />
      </main>
      <Footer />
    </div>
  );
}

function TopBar() {
  return (
    <header className="topbar">
      <div className="container topbar__inner">
        <Link to="/" className="topbar__brand" aria-label="Tiendita, inicio">
          <Logo size={28} />
          <span className="topbar__tagline">Tu negocio en línea</span>
        </Link>
        <nav className="topbar__actions" aria-label="Cuenta">
          <Link className="btn btn--ghost btn--sm" to={PUBLIC_PATHS.login}>
            Iniciar Sesión
          </Link>
          <Link className="btn btn--primary btn--sm" to={PUBLIC_PATHS.register}>
            Comenzar
          </Link>
        </nav>
      </div>
    </header>
  );
}

function Features() {
  return (
    <section className="section" id="caracteristicas" aria-labelledby="caracteristicas-titulo">
      <div className="container">
        <p className="section__eyebrow">Características</p>
        <h2 className="section__title" id="caracteristicas-titulo">
          Todo lo que necesitas para vender más
        </h2>
        <p className="section__lead">Herramientas sencillas para que tu negocio venda en línea, por WhatsApp y en tu local.</p>
        <ul className="features">
          {FEATURES.map((f) => {
            const IconComponent = FEATURE_ICONS[f.key];
            return (
              <li key={f.key} className="feature">
                <span className={`feature__icon feature__icon--${f.key}`}>
                  <IconComponent size={26} />
                </span>
                <h3 className="feature__title">{f.title}</h3>
                <p className="feature__text">{f.text}</p>
                <details className="feature__more">
                  <summary>Ver más</summary>
                  <p>{f.more}</p>
                </details>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

function StatsBand() {
  return (
    <section className="stats" id="estadisticas" aria-label="Tiendita en números">
      <div className="container">
        <ul className="stats__list">
          {MARKETING_STATS.map((s) => (
            <li key={s.value} className="stats__item">
              <strong className="stats__value">{s.value}</strong>
              <span className="stats__label">{s.label}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function ClosingCta() {
  return (
    <section className="section cta" aria-labelledby="cta-titulo">
      <div className="container cta__inner">
        <h2 className="cta__title" id="cta-titulo">
          ¿Listo para llevar tu negocio al siguiente nivel?
        </h2>
        <p className="cta__lead">Únete a los más de 2,500 negocios guatemaltecos que ya venden en línea con Tiendita.</p>
        <div className="cta__actions">
          <Link className="btn btn--primary btn--lg" to={PUBLIC_PATHS.register}>
            Comenzar
          </Link>
          <a className="btn btn--outline btn--lg" href={mailto(SALES_EMAIL, 'Quiero conocer Tiendita')}>
            Hablar con Ventas
          </a>
        </div>
        <ul className="cta__perks">
          {[`${TRIAL_DAYS} días gratis`, 'Sin costo de instalación', 'Soporte en español'].map((perk) => (
            <li key={perk}>
              <CheckIcon size={16} />
              {perk}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function TrustBadges() {
  const badges = [
    { icon: ShieldIcon, title: 'Datos seguros', text: 'Tu información y la de tus clientes, protegida.' },
    { icon: PinIcon, title: 'Hecho en Guatemala', text: 'Pensado para los negocios del país, en quetzales.' },
    { icon: HeadsetIcon, title: 'Soporte 24/7', text: 'Te ayudamos en español cuando lo necesites.' },
  ];
  return (
    <section className="trust" id="confianza" aria-label="Por qué confiar en Tiendita">
      <ul className="container trust__list">
        {badges.map(({ icon: BadgeIcon, title, text }) => (
          <li key={title} className="trust__item">
            <BadgeIcon size={24} />
            <div>
              <strong>{title}</strong>
              <span>{text}</span>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="footer">
      <div className="container footer__grid">
        <div className="footer__brand">
          <Logo size={30} tone="light" />
          <p>La plataforma de comercio electrónico para los negocios de Guatemala: tienda en línea, pedidos por WhatsApp y punto de venta.</p>
        </div>
        <nav aria-labelledby="footer-producto">
          <h2 className="footer__heading" id="footer-producto">
            Producto
          </h2>
          <ul>
            <li>
              <a href="#caracteristicas">Características</a>
            </li>
            <li>
              <a href={PUBLIC_PATHS.demoShop}>Tienda de demostración</a>
            </li>
            <li>
              <Link to={PUBLIC_PATHS.register}>Crear mi tienda</Link>
            </li>
            <li>
              <Link to={PUBLIC_PATHS.login}>Iniciar sesión</Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-soporte">
          <h2 className="footer__heading" id="footer-soporte">
            Soporte
          </h2>
          <ul>
            <li>
              <a href={mailto(SUPPORT_EMAIL, 'Necesito ayuda con Tiendita')}>Centro de ayuda</a>
            </li>
            <li>
              <Link to={PUBLIC_PATHS.forgotPassword}>Recuperar contraseña</Link>
            </li>
            <li>
              <a href={mailto(SALES_EMAIL, 'Quiero conocer Tiendita')}>Hablar con ventas</a>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-empresa">
          <h2 className="footer__heading" id="footer-empresa">
            Empresa
          </h2>
          <ul>
            <li>
              <a href="#estadisticas">Tiendita en números</a>
            </li>
            <li>
              <a href="#confianza">Por qué elegirnos</a>
            </li>
            <li>
              <a href={mailto(CONTACT_EMAIL, 'Contacto')}>Contacto</a>
            </li>
          </ul>
        </nav>
      </div>
      <div className="container footer__bottom">
        <p>© {year} Tiendita. Todos los derechos reservados.</p>
        <p>Hecho con cariño en Guatemala</p>
      </div>
    </footer>
  );
}
