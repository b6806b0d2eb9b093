import { ProductListQuery, PublicProductQuery, SubmitCommentRequest, SubmitRatingRequest, UploadRequest } from '@tiendita/contracts';
import { z } from 'zod';
// Through the package's entry, as every service loads it (the entry installs the messages).
import { mapError, parse } from '.';

/** The 400 body a schema's failure gives (what a client reads). */
function failure(schema: z.ZodType, value: unknown) {
  try {
    parse(schema, value);
  } catch (error) {
    return mapError(error);
  }
  throw new Error('the value was accepted');
}

const english = /Invalid|expected|Too (big|small)|received/;

describe('Spanish validation messages (no English zod text reaches a client)', () => {
  it('gives Spanish text for the issues a schema has no message for', () => {
    const schema = z.object({
      sortBy: z.enum(['name', 'price']),
      limit: z.coerce.number().int().min(1).max(100),
      page: z.coerce.number().int().min(1),
      id: z.string().uuid(),
      email: z.email(),
      name: z.string(),
      tags: z.array(z.string()).max(2),
    });
    const { status, body } = failure(schema, { sortBy: 'foo', limit: '1000', page: '0', id: 'x', email: 'bad', tags: ['a', 'b', 'c'] });
    expect(status).toBe(400);
    expect(body.details?.fields).toEqual({
      sortBy: 'Valor inválido: usa name, price',
      limit: 'Debe ser menor o igual a 100',
      page: 'Debe ser mayor o igual a 1',
      id: 'Identificador inválido',
      email: 'Email inválido',
      name: 'Campo requerido: se esperaba un texto',
      tags: 'No puede tener más de 2 elementos',
    });
    expect(failure(z.object({ n: z.coerce.number() }), { n: 'abc' }).body.message).toBe('Valor inválido: se esperaba un número');
  });

  it("keeps a schema's own message", () => {
    const schema = z.object({ name: z.string({ error: 'El nombre es requerido' }).min(1, 'El nombre es requerido') });
    expect(failure(schema, {}).body.message).toBe('El nombre es requerido');
    expect(failure(schema, { name: '' }).body.message).toBe('El nombre es requerido');
  });

  it('answers the owner and shop queries of spec 001 in Spanish', () => {
    for (const query of [{ sortBy: 'foo' }, { limit: '1000' }, { page: '0' }, { categoryId: 'abc' }, { limit: 'abc' }]) {
      const { body } = failure(ProductListQuery, query);
      expect(body.message).not.toMatch(english);
    }
    expect(failure(PublicProductQuery, { limit: 'abc' }).body.message).not.toMatch(english);
  });

  it('upload, rating and comment bodies answer the spec 001 §5 texts', () => {
    expect(failure(UploadRequest, {}).body.details?.fields).toEqual({
      filename: 'Selecciona al menos una imagen para subir.',
      contentType: 'Solo se pueden subir archivos de imagen.',
    });
    expect(failure(SubmitRatingRequest, { customerName: 'Ana', rating: 'x' }).body.message).toBe('La calificación debe estar entre 1 y 5.');
    expect(failure(SubmitRatingRequest, { customerName: 'Ana', rating: 4, customerEmail: 'bad' }).body.message).toBe('Email inválido');
    expect(failure(SubmitCommentRequest, { customerName: 'Ana', comment: 'Hola', customerEmail: 'bad' }).body.message).toBe('Email inválido');
    expect(failure(SubmitCommentRequest, { customerName: 'Ana', comment: 'Hola', parentCommentId: 'x' }).body.message).toBe(
      'El comentario al que respondes no existe o no está aprobado.',
    );
    // An empty e-mail still means none.
    expect(parse(SubmitRatingRequest, { customerName: 'Ana', customerEmail: '' }).customerEmail).toBeUndefined();
  });
});
