import { Card, Result } from 'antd';
import { ToolOutlined } from '@ant-design/icons';

/** An owner screen whose feature is not built yet: its title, what it will hold, and an honest notice. */
export function PlaceholderPage({ title, description }: { title: string; description: string }) {
  return (
    <>
      <header className="page-header">
        <h1>{title}</h1>
        <p>{description}</p>
      </header>
      <Card>
        <Result
          icon={<ToolOutlined style={{ color: '#0ea5e9' }} />}
          title="En construcción"
          subTitle={`La sección ${title} todavía no está disponible. Estamos trabajando en ella.`}
        />
      </Card>
    </>
  );
}
