import { act, render, screen } from '@testing-library/react';
import { addToCart, cartTotals, clearCart, removeFromCart, setCartQuantity, useCart, type CartProduct } from './cart-store';

const cafe: CartProduct = { id: 'p-cafe', name: 'Café', price: 50, finalPrice: 45, stock: 3, imageUrl: null };
const pan: CartProduct = { id: 'p-pan', name: 'Pan', price: 1.25, finalPrice: 1.25, stock: 10, imageUrl: null };

function CartSummary({ store }: { store: string }) {
  const { lines, count, total } = useCart(store);
  return (
    <p>
      {lines.length} líneas, {count} unidades, total {total.toFixed(2)}
    </p>
  );
}

beforeEach(() => {
  clearCart('demo');
  clearCart('otra');
});

describe('carrito de la tienda', () => {
  it('agrega al precio con descuento y tope en el stock', () => {
    addToCart('demo', cafe, 2);
    addToCart('demo', cafe, 5);
    render(<CartSummary store="demo" />);
    expect(screen.getByText('1 líneas, 3 unidades, total 135.00')).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('tiendita.cart.demo')!)[0]).toMatchObject({ price: 45, listPrice: 50, quantity: 3 });
  });

  it('ignora un producto sin stock (spec 001 §5)', () => {
    addToCart('demo', { ...pan, stock: 0 }, 1);
    expect(localStorage.getItem('tiendita.cart.demo')).toBeNull();
  });

  it('cambiar la cantidad a 0 quita la línea; quitar y vaciar actualizan la vista', () => {
    addToCart('demo', cafe, 1);
    addToCart('demo', pan, 4);
    render(<CartSummary store="demo" />);
    expect(screen.getByText('2 líneas, 5 unidades, total 50.00')).toBeInTheDocument();
    act(() => setCartQuantity('demo', 'p-pan', 0));
    expect(screen.getByText('1 líneas, 1 unidades, total 45.00')).toBeInTheDocument();
    act(() => setCartQuantity('demo', 'p-cafe', 99));
    expect(screen.getByText('1 líneas, 3 unidades, total 135.00')).toBeInTheDocument();
    act(() => removeFromCart('demo', 'p-cafe'));
    expect(screen.getByText('0 líneas, 0 unidades, total 0.00')).toBeInTheDocument();
  });

  it('cada tienda tiene su propio carrito', () => {
    addToCart('demo', cafe, 1);
    addToCart('otra', pan, 2);
    render(<CartSummary store="otra" />);
    expect(screen.getByText('1 líneas, 2 unidades, total 2.50')).toBeInTheDocument();
  });

  it('suma en centavos: 3 × Q0.10 es Q0.30 exacto', () => {
    const lines = [{ productId: 'x', name: 'Dulce', price: 0.1, quantity: 3, stock: 9, imageUrl: null }];
    expect(cartTotals(lines)).toEqual({ count: 3, total: 0.3 });
  });
});
