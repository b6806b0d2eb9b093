import { Button, Space } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { pageWindow } from '../../products/lib/pagination';

/** Previous, up to 5 page buttons, next, and the range shown out of the total. */
export function OrderPagination({ page, totalPages, total, limit, onPage }: { page: number; totalPages: number; total: number; limit: number; onPage: (page: number) => void }) {
  if (total === 0) return null;
  const from = (page - 1) * limit + 1;
  const to = Math.min(page * limit, total);
  return (
    <nav className="pagination-bar" aria-label="Paginación">
      <span className="pagination-bar__range">
        Mostrando {from}–{to} de {total} {total === 1 ? 'pedido' : 'pedidos'}
      </span>
      <Space size={4} wrap>
        <Button icon={<LeftOutlined />} disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label="Página anterior">
          Anterior
        </Button>
        {pageWindow(page, totalPages).map((n) => (
          <Button key={n} type={n === page ? 'primary' : 'default'} aria-current={n === page ? 'page' : undefined} aria-label={`Página ${n}`} onClick={() => onPage(n)}>
            {n}
          </Button>
        ))}
        <Button disabled={page >= totalPages} onClick={() => onPage(page + 1)} aria-label="Página siguiente">
          Siguiente <RightOutlined />
        </Button>
      </Space>
    </nav>
  );
}
