import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../components/brand/logo';
import { CheckIcon, ChevronLeftIcon, ChevronRightIcon, PlayIcon } from '../../components/icons';
import { formatCount, formatMoney } from '../../lib/format';
import { PUBLIC_PATHS } from '../../app/paths';
import { MARKETING_STATS, TRIAL_DAYS } from './landing-content';

/** Carousel timing of spec 000 §9. */
export const AUTO_ADVANCE_MS = 6000;
export const SLIDE_TRANSITION_MS = 1000;
const SLIDE_COUNT = 3;

/** The full-height hero: three slides, wrapping at both ends, auto-advancing every 6 s. */
export function HeroCarousel() {
  const [index, setIndex] = useState(0);
  const [focusWithin, setFocusWithin] = useState(false);

  // Re-armed on every change, so a manual move gives the new slide its full 6 s.
  useEffect(() => {
    if (focusWithin) return;
    const timer = setTimeout(() => setIndex((i) => (i + 1) % SLIDE_COUNT), AUTO_ADVANCE_MS);
    return () => clearTimeout(timer);
  }, [index, focusWithin]);

  const go = (next: number) => setIndex(((next % SLIDE_COUNT) + SLIDE_COUNT) % SLIDE_COUNT);

  const slides: ReactNode[] = [<SlideDigital key="0" />, <SlideBrand key="1" />, <SlideGrowth key="2" />];

  return (
    <section
      className="hero"
      aria-roledescription="carrusel"
      aria-label="Presentación de Tiendita"
      onFocus={() => setFocusWithin(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocusWithin(false);
      }}
    >
      <div className="hero__viewport">
        {slides.map((slide, i) => (
          <div
            key={i}
            className={`hero__slide hero__slide--${i + 1}`}
            role="group"
            aria-roledescription="diapositiva"
            aria-label={`${i + 1} de ${SLIDE_COUNT}`}
            aria-hidden={i !== index}
            inert={i !== index}
            data-active={i === index}
            style={{ transitionDuration: `${SLIDE_TRANSITION_MS}ms` }}
          >
            {slide}
          </div>
        ))}
      </div>
      <button type="button" className="hero__arrow hero__arrow--prev" aria-label="Diapositiva anterior" onClick={() => go(index - 1)}>
        <ChevronLeftIcon size={22} />
      </button>
      <button type="button" className="hero__arrow hero__arrow--next" aria-label="Diapositiva siguiente" onClick={() => go(index + 1)}>
        <ChevronRightIcon size={22} />
      </button>
      <div className="hero__dots">
        {slides.map((_, i) => (
          <button
            key={i}
            type="button"
            className="hero__dot"
            aria-label={`Ir a la diapositiva ${i + 1}`}
            aria-current={i === index ? 'true' : undefined}
            onClick={() => go(i)}
          />
        ))}
      </div>
    </section>
  );
}

function SlideActions() {
  return (
    <div className="hero__actions">
      <Link className="btn btn--white btn--lg" to={PUBLIC_PATHS.register}>
        Comenzar
      </Link>
      <a className="btn btn--outline-white btn--lg" href={PUBLIC_PATHS.demoShop}>
        <PlayIcon size={20} />
        Ver Demo
      </a>
    </div>
  );
}

function SlideDigital() {
  return (
    <div className="hero__inner">
      <div className="hero__copy">
        <p className="hero__eyebrow">Comercio electrónico hecho para Guatemala</p>
        <h1 className="hero__title">Transforma tu negocio al mundo digital</h1>
        <p className="hero__lead">
          Crea tu tienda en línea en minutos, recibe pedidos por WhatsApp y lleva el control de tus ventas desde cualquier lugar.
        </p>
        <SlideActions />
      </div>
      <div className="hero__visual" aria-label="Ejemplo del panel de una tienda" role="img">
        <div className="demo-card">
          <div className="demo-card__head">
            <span className="demo-card__avatar" aria-hidden="true">
              LE
            </span>
            <div>
              <p className="demo-card__name">Tienda La Esperanza</p>
              <p className="demo-card__place">Quetzaltenango</p>
            </div>
            <span className="badge badge--green">Activo</span>
          </div>
          <div className="demo-card__stats">
            <div>
              <p className="demo-card__value">{formatCount(248)}</p>
              <p className="demo-card__label">Productos</p>
            </div>
            <div>
              <p className="demo-card__value">{formatCount(1250)}</p>
              <p className="demo-card__label">Clientes</p>
            </div>
            <div>
              <p className="demo-card__value">{formatMoney(2450)}</p>
              <p className="demo-card__label">Ventas hoy</p>
            </div>
          </div>
          <div className="demo-card__month">
            <div>
              <p className="demo-card__label">Ventas del mes</p>
              <p className="demo-card__big">{formatMoney(45680)}</p>
            </div>
            <div className="demo-card__bars" aria-hidden="true">
              {[40, 55, 35, 70, 60, 85, 95].map((h, i) => (
                <span key={i} style={{ height: `${h}%` }} />
              ))}
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}

function SlideBrand() {
  return (
    <div className="hero__inner hero__inner--center">
      <div className="hero__brand">
        <Logo size={72} tone="light" />
        <h2 className="hero__title">Tu tienda en línea, lista para vender</h2>
        <p className="hero__lead">La plataforma con la que los negocios de Guatemala venden por internet, por WhatsApp y en su local.</p>
        <ul className="hero__stats">
          {MARKETING_STATS.slice(0, 3).map((s) => (
            <li key={s.value}>
              <strong>{s.value}</strong>
              <span>{s.label}</span>
            </li>
          ))}
        </ul>
        <SlideActions />
      </div>
    </div>
  );
}

function SlideGrowth() {
  return (
    <div className="hero__inner">
      <div className="hero__copy">
        <p className="hero__eyebrow">De la tienda del barrio a todo el país</p>
        <h2 className="hero__title">Crece sin límites</h2>
        <p className="hero__lead">
          Agrega productos, abre tu punto de venta y mira tus reportes: Tiendita crece al ritmo de tu negocio.
        </p>
        <SlideActions />
      </div>
      <ul className="hero__checklist">
        {[`${TRIAL_DAYS} días gratis`, 'Sin costo de instalación', 'Soporte en español', 'Soporte 24/7'].map((item) => (
          <li key={item}>
            <span className="hero__check" aria-hidden="true">
              <CheckIcon size={18} />
            </span>
            {item}
          </li>
        ))}
      </ul>
    </div>
  );
}
