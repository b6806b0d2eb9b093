// antd in jsdom is slow on a loaded machine (seconds per render): these tests get two minutes each.
jest.setTimeout(120_000);

import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { CurrentUser } from '@tiendita/contracts';
import { authKeys } from '../auth/api/keys';
import { ProfileNameForm } from './profile-name-form';
import { useStandIn } from '../../../test/stand-in-server';

const user: CurrentUser = {
  id: '0f8c1f7e-3c3a-4d7e-9a51-6c2f0f1c0a01',
  email: 'rosa@example.com',
  firstName: 'Rosa',
  lastName: 'Pérez',
  profileImageUrl: null,
  storeId: '0f8c1f7e-3c3a-4d7e-9a51-6c2f0f1c0a02',
};

const api = useStandIn();

function renderForm() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  client.setQueryData(authKeys.user, user);
  render(
    <QueryClientProvider client={client}>
      <ProfileNameForm user={user} />
    </QueryClientProvider>,
  );
  return client;
}

const puts = () => api.received.filter((r) => r.method === 'PUT' && r.path === '/api/auth/user');

describe('nombre en Mi Perfil', () => {
  it('guarda nombre y apellido con PUT /api/auth/user, y el usuario de la sesión lleva el nombre nuevo', async () => {
    api.on('PUT', '/api/auth/user', (req) => ({ status: 200, body: { ...user, ...(req.body as object) } }));
    const client = renderForm();
    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: '  Rosa María ' } });
    fireEvent.change(screen.getByLabelText('Apellido'), { target: { value: 'Pérez de León' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar nombre' }));
    await waitFor(() => expect(puts()).toHaveLength(1), { timeout: 45_000 });
    expect(puts()[0]!.body).toEqual({ firstName: 'Rosa María', lastName: 'Pérez de León' });
    await waitFor(() => expect(client.getQueryData<CurrentUser>(authKeys.user)).toMatchObject({ firstName: 'Rosa María', lastName: 'Pérez de León' }));
    expect(screen.getByLabelText('Email')).toHaveValue('rosa@example.com');
  });

  it('un apellido vacío muestra «El apellido es requerido» junto al campo y no envía nada', async () => {
    const before = puts().length;
    renderForm();
    fireEvent.change(screen.getByLabelText('Apellido'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar nombre' }));
    expect(await screen.findByText('El apellido es requerido', undefined, { timeout: 45_000 })).toBeInTheDocument();
    expect(puts()).toHaveLength(before);
  });

  it('el mensaje del servidor para un campo se muestra junto a ese campo', async () => {
    api.on('PUT', '/api/auth/user', { status: 400, body: { message: 'El nombre es requerido', code: 'VALIDATION_ERROR', details: { fields: { firstName: 'El nombre es requerido' } } } });
    renderForm();
    fireEvent.change(screen.getByLabelText('Nombre'), { target: { value: 'Rosa Elena' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar nombre' }));
    expect(await screen.findByText('El nombre es requerido', undefined, { timeout: 45_000 })).toBeInTheDocument();
  });
});
