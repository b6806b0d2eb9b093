import { receiptLinkPath, receiptSignature } from './receipt-link.controller';

const SECRET = 'un-secreto-de-prueba-largo';
const STORE = '3c2d8439-a47f-4375-92b7-232348103af6';
const ORDER = 'a5ca7a31-cf41-55d6-be5b-6457c8ab471e';
const OTHER = 'b5ca7a31-cf41-55d6-be5b-6457c8ab471e';

describe('the receipt link', () => {
  it('is signed with 256 bits (43 base64url characters), the same for the same receipt', () => {
    const signature = receiptSignature(SECRET, STORE, ORDER);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(receiptSignature(SECRET, STORE, ORDER.toUpperCase())).toBe(signature);
  });

  it('cannot be guessed from another receipt, another store or another deployment', () => {
    const signature = receiptSignature(SECRET, STORE, ORDER);
    expect(receiptSignature(SECRET, STORE, OTHER)).not.toBe(signature);
    expect(receiptSignature(SECRET, OTHER, ORDER)).not.toBe(signature);
    expect(receiptSignature(`${SECRET}-2`, STORE, ORDER)).not.toBe(signature);
  });

  it('is a public path under /api/public/receipts ending in .pdf', () => {
    expect(receiptLinkPath(SECRET, STORE, ORDER)).toBe(`/api/public/receipts/${STORE}/${ORDER}/${receiptSignature(SECRET, STORE, ORDER)}.pdf`);
  });
});
