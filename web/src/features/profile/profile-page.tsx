import { Button, Card, Form, Input, Popconfirm, Space, Typography } from 'antd';
import { LockOutlined, LogoutOutlined } from '@ant-design/icons';
import { ChangePasswordForm, type ChangePasswordRequest } from '@tiendita/contracts';
import type { RuleObject } from 'antd/es/form';
import { toast } from '../../components/toast/toast-store';
import { showServerFieldErrors } from '../../lib/antd-form-errors';
import { serverMessageOr } from '../../lib/api';
import { useCurrentUser } from '../auth/api/get-current-user';
import { useChangePassword } from './api/change-password';
import { useRevokeOtherSessions } from './api/revoke-other-sessions';
import { ProfileNameForm } from './profile-name-form';
import './profile.css';

type PasswordValues = { currentPassword: string; newPassword: string; confirmPassword: string };
type PasswordField = keyof PasswordValues;
const EMPTY: PasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

const ended = (count: number) => (count === 1 ? 'Se cerró 1 sesión en otro dispositivo.' : `Se cerraron ${count} sesiones en otros dispositivos.`);

/** /profile ('Mi Perfil'): the owner's name (editable) and e-mail, the password change and signing out of other devices. */
export function ProfilePage() {
  const { user } = useCurrentUser();
  const [form] = Form.useForm<PasswordValues>();
  const change = useChangePassword();
  const revoke = useRevokeOtherSessions();

  // Each field shows the first message the shared schema (contracts) gives it.
  const rule = (field: PasswordField) => ({
    validator: (_rule: RuleObject) => {
      const parsed = ChangePasswordForm.safeParse({ ...EMPTY, ...(form.getFieldsValue() as Partial<PasswordValues>) });
      const issue = parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === field);
      return issue ? Promise.reject(new Error(issue.message)) : Promise.resolve();
    },
  });

  const onFinish = (values: PasswordValues) => {
    const body: ChangePasswordRequest = { currentPassword: values.currentPassword, newPassword: values.newPassword };
    change.mutate(body, {
      onSuccess: (result) => {
        form.resetFields();
        toast({ title: 'Contraseña actualizada', description: result.endedSessions > 0 ? `${result.message} ${ended(result.endedSessions)}` : result.message });
      },
      onError: (error) => {
        if (!showServerFieldErrors(form, error)) {
          toast({ title: 'No se pudo cambiar la contraseña', description: serverMessageOr(error, 'Inténtalo de nuevo.'), variant: 'destructive' });
        }
      },
    });
  };

  const onRevoke = () =>
    revoke.mutate(undefined, {
      onSuccess: (result) => toast({ title: 'Sesiones cerradas', description: result.endedSessions > 0 ? ended(result.endedSessions) : 'No había sesiones abiertas en otros dispositivos.' }),
      onError: (error) => toast({ title: 'No se pudieron cerrar las sesiones', description: serverMessageOr(error, 'Inténtalo de nuevo.'), variant: 'destructive' }),
    });

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%', maxWidth: 640 }}>
      <Typography.Title level={1} style={{ fontSize: 24, margin: 0 }}>
        Mi Perfil
      </Typography.Title>
      <Card title="Tus datos">{user ? <ProfileNameForm user={user} /> : null}</Card>
      <Card title="Cambiar contraseña">
        <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} aria-label="Cambiar contraseña">
          <Form.Item label="Contraseña actual" name="currentPassword" rules={[rule('currentPassword')]}>
            <Input.Password autoComplete="current-password" prefix={<LockOutlined />} />
          </Form.Item>
          <Form.Item label="Nueva contraseña" name="newPassword" rules={[rule('newPassword')]} extra="Al menos 6 caracteres, con una mayúscula y un número.">
            <Input.Password autoComplete="new-password" prefix={<LockOutlined />} />
          </Form.Item>
          <Form.Item label="Confirmar nueva contraseña" name="confirmPassword" dependencies={['newPassword']} rules={[rule('confirmPassword')]}>
            <Input.Password autoComplete="new-password" prefix={<LockOutlined />} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={change.isPending}>
            Cambiar contraseña
          </Button>
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          Al cambiarla, se cierra tu sesión en los demás dispositivos; en este sigues conectado.
        </Typography.Paragraph>
      </Card>
      <Card title="Sesiones">
        <Typography.Paragraph>¿Iniciaste sesión en otro teléfono o computadora? Ciérrala allí sin salir de este dispositivo.</Typography.Paragraph>
        <Popconfirm title="¿Cerrar sesión en los demás dispositivos?" okText="Sí, cerrar" cancelText="Cancelar" onConfirm={onRevoke}>
          <Button icon={<LogoutOutlined />} loading={revoke.isPending}>
            Cerrar sesión en otros dispositivos
          </Button>
        </Popconfirm>
      </Card>
    </Space>
  );
}
