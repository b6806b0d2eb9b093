import { Button, Result } from 'antd';
import { Link } from 'react-router';

/** Any path the owner app does not know. */
export function NotFoundPage() {
  return (
    <Result
      status="404"
      title="Página no encontrada"
      subTitle="La página que buscas no existe o fue movida."
      extra={
        <Link to="/dashboard">
          <Button type="primary">Ir al Dashboard</Button>
        </Link>
      }
    />
  );
}
