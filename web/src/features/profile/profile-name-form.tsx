import { Button, Form, Input } from 'antd';
import { UpdateProfileRequest, type CurrentUser } from '@tiendita/contracts';
import { useEffect } from 'react';
import { toast } from '../../components/toast/toast-store';
import { showServerFieldErrors } from '../../lib/antd-form-errors';
import { serverMessageOr } from '../../lib/api';
import { useUpdateProfile } from './api/update-profile';

type NameValues = { firstName: string; lastName: string };
type NameField = keyof NameValues;

/** 'Tus datos': the owner's first and last name (editable) and e-mail (read only). */
export function ProfileNameForm({ user }: { user: CurrentUser }) {
  const [form] = Form.useForm<NameValues>();
  const update = useUpdateProfile();

  useEffect(() => {
    form.setFieldsValue({ firstName: user.firstName, lastName: user.lastName });
  }, [form, user.firstName, user.lastName]);

  // Each field shows the first message the shared schema (contracts) gives it, as the server would.
  const rule = (field: NameField) => ({
    validator: () => {
      const parsed = UpdateProfileRequest.safeParse(form.getFieldsValue());
      const issue = parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === field);
      return issue ? Promise.reject(new Error(issue.message)) : Promise.resolve();
    },
  });

  const onFinish = (values: NameValues) =>
    update.mutate(UpdateProfileRequest.parse(values), {
      onSuccess: (saved) => toast({ title: 'Perfil actualizado', description: `Ahora te llamamos ${saved.firstName} ${saved.lastName}.` }),
      onError: (error) => {
        if (!showServerFieldErrors(form, error)) {
          toast({ title: 'No se pudo guardar tu nombre', description: serverMessageOr(error, 'Inténtalo de nuevo.'), variant: 'destructive' });
        }
      },
    });

  return (
    <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} aria-label="Tus datos" initialValues={{ firstName: user.firstName, lastName: user.lastName }}>
      <div className="profile__names">
        <Form.Item label="Nombre" name="firstName" rules={[rule('firstName')]}>
          <Input autoComplete="given-name" maxLength={100} />
        </Form.Item>
        <Form.Item label="Apellido" name="lastName" rules={[rule('lastName')]}>
          <Input autoComplete="family-name" maxLength={100} />
        </Form.Item>
      </div>
      <Form.Item label="Email" htmlFor="profile-email" extra="El email es con el que inicias sesión; no se puede cambiar aquí.">
        <Input id="profile-email" value={user.email} readOnly aria-readonly="true" autoComplete="email" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={update.isPending}>
        Guardar nombre
      </Button>
    </Form>
  );
}
