import { Badge, Button, Popover } from 'antd';
import { BellOutlined } from '@ant-design/icons';

/**
 * The bell shows how many notifications are unread. No notifications feed exists yet, so the count is
 * absent and no badge is drawn; a number appears only when a caller passes a real one.
 */
export function NotificationBell({ unread }: { unread?: number }) {
  const label = unread ? `Notificaciones: ${unread} sin leer` : 'Notificaciones';
  return (
    <Popover trigger="click" placement="bottomRight" title="Notificaciones" content={<p className="shell__empty">No tienes notificaciones nuevas.</p>}>
      <Button type="text" shape="circle" aria-label={label} className="shell__bell">
        <Badge count={unread} size="small">
          <BellOutlined style={{ fontSize: 20 }} />
        </Badge>
      </Button>
    </Popover>
  );
}
