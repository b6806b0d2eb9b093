import { Alert, Button, Form, Input, InputNumber, Select, Skeleton, Switch, Tag } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { FEL_CREDENTIAL_FIELDS, felPhrases, type FelCredentialField, type FelSettingsView, type UpdateFelSettingsBody } from '@tiendita/contracts';
import { toast } from '../../components/toast/toast-store';
import { readApiError } from '../../lib/api-error';
import { useFelSettings, useUpdateFelSettings } from '../fel/api/fel-settings';
import { rememberFelOnDevice } from '../fel/lib/fel-on-device';

const CREDENTIAL_LABELS: Record<FelCredentialField, string> = {
  apiUser: 'Usuario de la API',
  apiKey: 'Llave de la API',
  signUser: 'Usuario de firma',
  signKey: 'Llave de firma',
};

/** The settings chosen from a list: the ISR regime (general regime only), the certifier, the environment. */
const CHOICES: { name: 'isrRegime' | 'certifier' | 'environment'; label: string; extra: string; options: { value: string; label: string }[] }[] = [
  {
    name: 'isrRegime',
    label: 'Régimen del ISR',
    extra: 'La frase de ISR que la SAT exige en tus facturas.',
    options: (['trimestral', 'retencion'] as const).map((isr) => ({ value: isr, label: felPhrases('FACT', isr)[0].text })),
  },
  {
    name: 'certifier',
    label: 'Certificador',
    extra: 'INFILE certifica ante la SAT; Pruebas certifica documentos de ensayo sin validez fiscal.',
    options: [
      { value: 'pruebas', label: 'Pruebas (sin validez fiscal)' },
      { value: 'infile', label: 'INFILE' },
    ],
  },
  {
    name: 'environment',
    label: 'Ambiente',
    extra: 'Pruebas mientras ensayas; Producción cuando tu certificador te habilite.',
    options: [
      { value: 'pruebas', label: 'Pruebas' },
      { value: 'produccion', label: 'Producción' },
    ],
  },
];

type FelFormValues = Omit<FelSettingsView, 'credentials' | 'ivaAffiliation'> & { credentials: Partial<Record<FelCredentialField, string>> };

function valuesOf(s: FelSettingsView): FelFormValues {
  const { credentials: _set, ivaAffiliation: _iva, ...rest } = s;
  return { ...rest, credentials: {} };
}

/**
 * The 'Facturación (FEL)' tab of Configuración: the issuer's data as SAT has it, the certifier and
 * its credentials (stored encrypted, shown only as set or not). A form of its own inside the
 * settings page (no <form> element of its own: the page's form wraps every tab), with its own save.
 */
export function FelSettingsTab() {
  const settings = useFelSettings();
  if (settings.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (settings.isError) return <Alert type="error" showIcon title="No se pudo cargar la configuración de facturación" description="Inténtalo de nuevo en unos momentos." />;
  return <FelSettingsForm settings={settings.data} />;
}

function FelSettingsForm({ settings }: { settings: FelSettingsView }) {
  const [form] = Form.useForm<FelFormValues>();
  const update = useUpdateFelSettings();
  const regime = settings.ivaAffiliation;

  const save = async () => {
    const values = await form.validateFields();
    const credentials = Object.fromEntries(Object.entries(values.credentials ?? {}).filter(([, v]) => typeof v === 'string' && v.trim() !== ''));
    const { issuerNit, legalName, commercialName, ...rest } = values;
    const body: UpdateFelSettingsBody = {
      ...rest,
      ...(issuerNit ? { issuerNit } : {}),
      ...(legalName ? { legalName } : {}),
      ...(commercialName ? { commercialName } : {}),
      email: values.email?.trim() ? values.email.trim() : null,
      credentials,
    };
    try {
      const saved = await update.mutateAsync(body);
      form.setFieldsValue(valuesOf(saved));
      rememberFelOnDevice(saved.enabled);
      toast({ title: 'Facturación guardada', description: saved.enabled ? 'Cada venta pagada se certificará ante la SAT.' : 'La facturación electrónica está apagada.' });
    } catch (error) {
      const info = readApiError(error);
      toast({ title: 'No se pudo guardar la facturación', description: info.message ?? 'Inténtalo de nuevo en unos momentos.', variant: 'destructive' });
    }
  };

  return (
    <Form form={form} name="fel" component={false} layout="vertical" initialValues={valuesOf(settings)} requiredMark={false}>
      <p className="settings-hint">
        Con FEL activo, cada venta del POS y cada pedido de WhatsApp pagado por completo recibe su factura electrónica certificada, sin detener la venta.{' '}
        <Link to="/invoices">Ver facturas</Link>
      </p>
      <Form.Item name="enabled" label="Facturación electrónica (FEL)" valuePropName="checked" extra="Actívala cuando tengas los datos de tu negocio y tu certificador.">
        <Switch checkedChildren="Activa" unCheckedChildren="Apagada" />
      </Form.Item>
      <Form.Item name="issuerNit" label="NIT del emisor" extra="El NIT de tu negocio, con su dígito verificador (puedes escribir el guion).">
        <Input maxLength={15} placeholder="1234567-8" />
      </Form.Item>
      <Form.Item name="legalName" label="Nombre o razón social" extra="Como aparece en tu RTU de la SAT.">
        <Input maxLength={255} />
      </Form.Item>
      <Form.Item name="commercialName" label="Nombre comercial" extra="El nombre del establecimiento inscrito en la SAT.">
        <Input maxLength={255} />
      </Form.Item>
      <Form.Item name="establishmentCode" label="Código de establecimiento" extra="El número que la SAT asignó al establecimiento (1 si tienes uno solo).">
        <InputNumber min={1} max={9999} precision={0} />
      </Form.Item>
      <Form.Item name="address" label="Dirección del establecimiento" extra="Sale en cada factura.">
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="municipality" label="Municipio" extra="Municipio del establecimiento.">
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="department" label="Departamento" extra="Departamento del establecimiento.">
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="postalCode" label="Código postal" extra="Si no lo conoces, 01001 (Ciudad de Guatemala).">
        <Input maxLength={10} inputMode="numeric" />
      </Form.Item>
      <Form.Item name="email" label="Correo del emisor (opcional)" extra="Si lo indicas, va en la factura.">
        <Input maxLength={100} type="email" />
      </Form.Item>
      <Form.Item label="Afiliación al IVA" extra="Sigue el régimen de impuestos de la pestaña Avanzado: General emite FACTURA con IVA; Pequeño Contribuyente, FACTURA PEQUEÑO CONTRIBUYENTE.">
        <Tag color={regime === 'GEN' ? 'blue' : 'gold'}>{regime === 'GEN' ? 'GEN — Régimen general (IVA 12%)' : 'PEQ — Pequeño Contribuyente'}</Tag>
      </Form.Item>
      {CHOICES.filter((c) => regime === 'GEN' || c.name !== 'isrRegime').map((c) => (
        <Form.Item key={c.name} name={c.name} label={c.label} extra={c.extra}>
          <Select options={c.options} />
        </Form.Item>
      ))}
      {FEL_CREDENTIAL_FIELDS.map((field) => (
        <Form.Item
          key={field}
          name={['credentials', field]}
          label={
            <span>
              {CREDENTIAL_LABELS[field]} {settings.credentials[field] ? <Tag color="green">Guardada</Tag> : <Tag>Sin guardar</Tag>}
            </span>
          }
          extra="Te la da tu certificador. Se guarda cifrada y nunca se muestra; déjala vacía para conservar la guardada."
        >
          <Input.Password autoComplete="new-password" maxLength={200} placeholder={settings.credentials[field] ? '••••••••' : ''} />
        </Form.Item>
      ))}
      <div className="settings-actions">
        <Button type="primary" icon={<SaveOutlined />} loading={update.isPending} onClick={() => void save()}>
          Guardar facturación
        </Button>
      </div>
    </Form>
  );
}
