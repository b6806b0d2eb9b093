import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Alert, Button, Card, Form, Input, Radio, Select, Skeleton, Space, Switch, Tabs, Tag, Typography } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { BUSINESS_TYPES, DEPARTMENTS, SettingsMessages, TAX_REGIME_INFO, sanitizeWhatsapp, WHATSAPP_SAMPLE_ORDER, whatsappLink, whatsappOrderMessage } from '@tiendita/contracts';
import { toast } from '../../components/toast/toast-store';
import { readApiError } from '../../lib/api-error';
import { useStore } from '../store/api/get-store';
import { useSubdomainAvailability } from './api/check-subdomain';
import { useStoreSettings } from './api/get-store-settings';
import { useUpdateStore } from './api/update-store';
import { useUpdateStoreSettings } from './api/update-store-settings';
import { bodiesOf, formValuesOf, SETTINGS_TABS, TAB_OF_FIELD, tabOfHash, type SettingsFormValues, type SettingsTab } from './lib/settings-form';
import { SubscriptionsCard } from '../subscriptions/components/subscriptions-card';
import { FelSettingsTab } from './fel-settings-tab';
import { OrderLimitsFields } from './order-limits-fields';
import { OfflineCardSetting } from '../pos/components/offline-card-setting';
import { CustomizationTab } from './customization-tab';
import './settings.css';

const TAB_LABELS: Record<SettingsTab, string> = {
  general: 'General',
  contact: 'Contacto',
  whatsapp: 'WhatsApp',
  ai: 'Inteligencia Artificial',
  customization: 'Personalización',
  advanced: 'Avanzado',
  fel: 'Facturación (FEL)',
};

/** /settings: seven tabs chosen by the URL hash (#whatsapp…), one save button for the first six; 'Facturación (FEL)' saves its own. */
export function SettingsPage() {
  const store = useStore();
  const settings = useStoreSettings();
  if (store.isPending || settings.isPending) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  if (store.isError || settings.isError) {
    return <Alert type="error" showIcon title="No se pudo cargar la configuración" description="Inténtalo de nuevo en unos momentos." />;
  }
  return <SettingsForm initial={formValuesOf(store.data, settings.data)} storeId={store.data.id} />;
}

function SettingsForm({ initial, storeId }: { initial: SettingsFormValues; storeId: string }) {
  const [form] = Form.useForm<SettingsFormValues>();
  const location = useLocation();
  const navigate = useNavigate();
  const tab = tabOfHash(location.hash);
  const updateStore = useUpdateStore();
  const updateSettings = useUpdateStoreSettings();
  const saving = updateStore.isPending || updateSettings.isPending;

  const setTab = (next: string) => navigate({ hash: `#${next}` }, { replace: true });

  const save = async (values: SettingsFormValues) => {
    const bodies = bodiesOf({ ...initial, ...values });
    try {
      const saved = await updateStore.mutateAsync({ id: storeId, body: bodies.store });
      const savedSettings = await updateSettings.mutateAsync(bodies.settings);
      form.setFieldsValue(formValuesOf(saved, savedSettings));
      toast({ title: SettingsMessages.saved, description: 'Los cambios de tu tienda ya están publicados.' });
    } catch (error) {
      const info = readApiError(error);
      const fields = Object.entries(info.fields).filter(([name]) => name in TAB_OF_FIELD) as [keyof SettingsFormValues, string][];
      if (fields.length > 0) {
        form.setFields(fields.map(([name, message]) => ({ name, errors: [message] })));
        setTab(TAB_OF_FIELD[fields[0][0]]);
      }
      toast({ title: SettingsMessages.saveFailed, description: info.message ?? 'Inténtalo de nuevo en unos momentos.', variant: 'destructive' });
    }
  };

  return (
    <>
      <header className="page-header">
        <h1>Configuración</h1>
        <p>Los datos de tu tienda, WhatsApp, la apariencia de tu tienda en línea y los recibos.</p>
      </header>
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(v) => void save(v)} requiredMark={false} className="settings-form">
        <Card>
          <Tabs
            activeKey={tab}
            onChange={setTab}
            items={SETTINGS_TABS.map((key) => ({ key, label: TAB_LABELS[key], forceRender: true, children: <TabContent tab={key} storeId={storeId} initial={initial} /> }))}
          />
          {tab !== 'fel' && (
            <div className="settings-actions">
              <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={saving}>
                Guardar Cambios
              </Button>
            </div>
          )}
        </Card>
      </Form>
      <SubscriptionsCard />
    </>
  );
}

function TabContent({ tab, initial }: { tab: SettingsTab; storeId: string; initial: SettingsFormValues }) {
  switch (tab) {
    case 'general':
      return <GeneralTab />;
    case 'contact':
      return <ContactTab />;
    case 'whatsapp':
      return <WhatsappTab />;
    case 'ai':
      return <AiTab />;
    case 'customization':
      return <CustomizationTab />;
    case 'advanced':
      return <AdvancedTab initialSubdomain={initial.subdomain} />;
    case 'fel':
      return <FelSettingsTab />;
  }
}

function GeneralTab() {
  return (
    <>
      <Form.Item name="name" label="Nombre de la tienda">
        <Input maxLength={255} />
      </Form.Item>
      <Form.Item name="description" label="Descripción">
        <Input.TextArea rows={3} maxLength={2000} />
      </Form.Item>
      <Form.Item name="businessType" label="Tipo de negocio">
        <Select options={BUSINESS_TYPES.map((b) => ({ value: b.value, label: b.label }))} />
      </Form.Item>
      <Form.Item name="department" label="Departamento">
        <Select showSearch options={DEPARTMENTS.map((d) => ({ value: d, label: d }))} />
      </Form.Item>
      <Form.Item name="isActive" label="Tienda activa" valuePropName="checked" extra="Si la desactivas, los clientes no podrán ver tu tienda ni hacer pedidos.">
        <Switch checkedChildren="Activa" unCheckedChildren="Inactiva" />
      </Form.Item>
    </>
  );
}

function ContactTab() {
  return (
    <>
      <Form.Item name="phone" label="Teléfono">
        <Input maxLength={20} inputMode="tel" />
      </Form.Item>
      <Form.Item name="email" label="Email">
        <Input type="email" maxLength={255} />
      </Form.Item>
      <Form.Item name="website" label="Sitio web">
        <Input placeholder="https://" maxLength={255} />
      </Form.Item>
      <Form.Item name="address" label="Dirección">
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
      <Form.Item name="businessHours" label="Horario de atención">
        <Input placeholder="Lunes a sábado, 8:00 a 18:00" maxLength={500} />
      </Form.Item>
    </>
  );
}

function WhatsappTab() {
  const form = Form.useFormInstance<SettingsFormValues>();
  const number = Form.useWatch('whatsappNumber', form) ?? '';
  const hasNumber = number.trim().length > 0;
  // The text a shopper's order sends (the same builder as ordering's), with a sample cart.
  const preview = whatsappOrderMessage(WHATSAPP_SAMPLE_ORDER);
  const link = whatsappLink(number, preview);
  useEffect(() => {
    // The form's own value, not the watched one: useWatch is undefined on the first render, which
    // switched online orders off on every visit (and on the next save).
    const stored = String(form.getFieldValue('whatsappNumber') ?? '').trim();
    if (!stored && form.getFieldValue('allowOnlineOrders')) form.setFieldValue('allowOnlineOrders', false);
  }, [hasNumber, form]);
  return (
    <>
      <Form.Item name="whatsappNumber" label="Número de WhatsApp" normalize={(v: string) => sanitizeWhatsapp(v ?? '')} extra={SettingsMessages.whatsappAdvice}>
        <Input maxLength={20} inputMode="tel" placeholder="502 1234 5678" />
      </Form.Item>
      <Form.Item
        name="allowOnlineOrders"
        label="Recibir pedidos en línea"
        valuePropName="checked"
        extra={hasNumber ? 'Los clientes podrán enviarte su pedido por WhatsApp desde tu tienda.' : 'Agrega un número de WhatsApp para activar los pedidos en línea.'}
      >
        <Switch disabled={!hasNumber} />
      </Form.Item>
      <Form.Item name="requireCustomerInfo" label="Pedir la dirección del cliente" valuePropName="checked" extra="La dirección será obligatoria al confirmar un pedido.">
        <Switch />
      </Form.Item>
      <Typography.Text strong>Vista previa del mensaje</Typography.Text>
      <pre className="settings-whatsapp-preview" aria-label="Vista previa del mensaje de WhatsApp">
        {preview}
      </pre>
      {link && (
        <Typography.Link href={link} target="_blank" rel="noopener noreferrer">
          Probar el mensaje en WhatsApp
        </Typography.Link>
      )}
      <OrderLimitsFields />
    </>
  );
}

function AiTab() {
  return (
    <Form.Item name="aiDescriptionLength" label="Longitud de las descripciones generadas con IA">
      <Radio.Group
        options={[
          { value: 'short', label: 'Corta (hasta 50 palabras)' },
          { value: 'normal', label: 'Normal (hasta 100 palabras)' },
          { value: 'long', label: 'Larga (hasta 200 palabras)' },
        ]}
      />
    </Form.Item>
  );
}

function AdvancedTab({ initialSubdomain }: { initialSubdomain: string }) {
  const form = Form.useFormInstance<SettingsFormValues>();
  const subdomain = Form.useWatch('subdomain', form) ?? initialSubdomain;
  const [debounced, setDebounced] = useState(subdomain);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(subdomain), 400);
    return () => clearTimeout(timer);
  }, [subdomain]);
  const check = useSubdomainAvailability(debounced, debounced !== initialSubdomain && debounced.length > 0);
  const regime = Form.useWatch('taxRegime', form) ?? 'general';
  const status = debounced === initialSubdomain ? null : check.data;
  const help = useMemo(() => {
    if (!status) return `Tu tienda: ${window.location.origin}/${subdomain}`;
    return status.available ? `${status.message}: ${window.location.origin}/${status.subdomain}` : status.message;
  }, [status, subdomain]);

  return (
    <>
      <Form.Item
        name="subdomain"
        label="Subdominio"
        normalize={(v: string) => (v ?? '').toLowerCase().replace(/[^a-z0-9-]/g, '')}
        validateStatus={status ? (status.available ? 'success' : 'error') : undefined}
        help={help}
        extra="Si lo cambias, la dirección anterior seguirá llevando a tu tienda durante 90 días."
      >
        <Input maxLength={50} addonBefore="tienda/" />
      </Form.Item>
      <Form.Item name="taxRegime" label="Régimen tributario" extra={TAX_REGIME_INFO[regime as keyof typeof TAX_REGIME_INFO]?.receiptNote}>
        <Radio.Group
          options={[
            { value: 'general', label: TAX_REGIME_INFO.general.label },
            { value: 'pequeno_contribuyente', label: TAX_REGIME_INFO.pequeno_contribuyente.label },
          ]}
        />
      </Form.Item>
      <Form.Item name="receiptHeader" label="Encabezado del recibo">
        <Input.TextArea rows={2} maxLength={500} />
      </Form.Item>
      <Form.Item name="receiptFooter" label="Pie del recibo">
        <Input.TextArea rows={2} maxLength={500} placeholder="¡Gracias por su compra!" />
      </Form.Item>
      <Form.Item name="printReceipts" label="Imprimir recibos" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Space size="large" wrap>
        <span>
          Pagos con Kash <Switch disabled checked={false} aria-label="Kash" /> <Tag>Próximamente</Tag>
        </span>
        <span>
          Pagos con Zigi <Switch disabled checked={false} aria-label="Zigi" /> <Tag>Próximamente</Tag>
        </span>
      </Space>
      <OfflineCardSetting />
    </>
  );
}
