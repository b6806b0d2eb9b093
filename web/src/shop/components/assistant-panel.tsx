import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { enhanceSearch } from '../api/enhance-search';
import { AI_SEARCH_MIN_CHARS, ASSISTANT_MAX_DELAY_MS, ASSISTANT_MAX_PRODUCTS, ASSISTANT_MIN_DELAY_MS } from '../lib/ai-search';
import { formatMoney } from '../lib/format';
import { productPath } from '../shop-route';

interface FoundProduct {
  id: string;
  name: string;
  finalPrice: number;
}

interface Message {
  from: 'bot' | 'user';
  text: string;
  /** Products the answer names, each a link to its page. */
  products?: FoundProduct[];
  /** Said after the products. */
  after?: string;
}

const APOLOGY = 'Lo siento, no pude responder en este momento. Intenta de nuevo en unos segundos.';
const NOTHING_FOUND = 'No encontré productos con esa descripción. Prueba con otras palabras, una categoría o un precio (por ejemplo, «menos de 50»).';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The assistant's conversation (spec 001 §2, §9): it answers after 1 to 2.5 s with up to 10 of the
 * store's products found by the AI search, each a link to its page, and apologises when the search
 * fails. Its own chunk: the shop's first screen only carries the button that opens it. Stays
 * mounted (hidden) once opened, so the conversation survives closing and opening again.
 */
export function AssistantPanel({ store, storeName, open, onClose }: { store: string; storeName: string; open: boolean; onClose: () => void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [messages, setMessages] = useState<Message[]>([{ from: 'bot', text: `¡Hola! Soy el asistente de ${storeName}. ¿Qué producto buscas?` }]);
  const logRef = useRef<HTMLUListElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  // The newest message in view. Not scrollIntoView: it may scroll the page under the panel, and
  // Chromium's answers a promise, which an arrow effect would hand React as its cleanup (the shop
  // went blank on the first question).
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages, busy, open]);

  useEffect(() => {
    if (open) inputRef.current?.focus({ preventScroll: true });
  }, [open]);

  const ask = async (question: string) => {
    setMessages((m) => [...m, { from: 'user', text: question }]);
    setBusy(true);
    const delay = ASSISTANT_MIN_DELAY_MS + Math.random() * (ASSISTANT_MAX_DELAY_MS - ASSISTANT_MIN_DELAY_MS);
    let reply: Message;
    try {
      const [result] = await Promise.all([question.trim().length >= AI_SEARCH_MIN_CHARS ? enhanceSearch(store, question) : Promise.resolve(null), wait(delay)]);
      const products = result?.suggestedProducts.slice(0, ASSISTANT_MAX_PRODUCTS) ?? [];
      reply =
        products.length > 0
          ? {
              from: 'bot',
              text: products.length === 1 ? 'Encontré este producto:' : `Esto es lo que encontré (${products.length} productos):`,
              products: products.map((p) => ({ id: p.id, name: p.name, finalPrice: p.finalPrice })),
              after: 'Toca uno para ver sus detalles y agregarlo al carrito.',
            }
          : { from: 'bot', text: NOTHING_FOUND };
    } catch {
      await wait(Math.max(0, delay));
      reply = { from: 'bot', text: APOLOGY };
    }
    setMessages((m) => [...m, reply]);
    setBusy(false);
  };

  return (
    <section className="shop-assistant" aria-label="Asistente virtual" hidden={!open}>
      <header className="shop-assistant__head">
        <strong>Asistente virtual</strong>
        <button type="button" className="shop-assistant__close" aria-label="Cerrar asistente" onClick={onClose}>
          ×
        </button>
      </header>
      <ul className="shop-assistant__log" aria-live="polite" ref={logRef}>
        {messages.map((m, i) => (
          <li key={i} className={`shop-assistant__msg shop-assistant__msg--${m.from}`}>
            {m.text}
            {m.products && (
              <ul className="shop-assistant__products">
                {m.products.map((p) => (
                  <li key={p.id}>
                    <Link to={productPath(store, p.id)} onClick={onClose}>
                      {p.name} — {formatMoney(p.finalPrice)}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
            {m.after && <span className="shop-assistant__after">{m.after}</span>}
          </li>
        ))}
        {busy && <li className="shop-assistant__msg shop-assistant__msg--bot shop-muted">Escribiendo…</li>}
      </ul>
      <form
        className="shop-assistant__form"
        onSubmit={(e) => {
          e.preventDefault();
          const q = text.trim();
          if (!q || busy) return;
          setText('');
          void ask(q);
        }}
      >
        <label className="visually-hidden" htmlFor="shop-assistant-input">
          Tu pregunta
        </label>
        <input ref={inputRef} id="shop-assistant-input" value={text} onChange={(e) => setText(e.target.value)} placeholder="Escribe tu pregunta…" autoComplete="off" />
        <button type="submit" className="shop-button" disabled={busy || !text.trim()}>
          Enviar
        </button>
      </form>
    </section>
  );
}
