import { useRef, useState } from 'react';
import { Button, ColorPicker, Form, Space } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { toast } from '../../components/toast/toast-store';
import { readApiError } from '../../lib/api-error';
import { uploadImage } from '../products/api/upload-image';
import { readable } from '../../shop/lib/theme';
import type { SettingsFormValues } from './lib/settings-form';

const hexOf = (value: unknown) => (typeof value === 'string' ? value : (value as { toHexString(): string }).toHexString());

/** Settings' 'Personalización' tab: the logo, the three colours, and the shop as shoppers will see it. */
export function CustomizationTab() {
  const form = Form.useFormInstance<SettingsFormValues>();
  const logoUrl = Form.useWatch('logoUrl', form) ?? null;
  const primary = Form.useWatch('primaryColor', form) ?? '#0ea5e9';
  const secondary = Form.useWatch('secondaryColor', form) ?? '#0284c7';
  const accent = Form.useWatch('accentColor', form) ?? '#dc2626';
  const name = Form.useWatch('name', form) ?? '';
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toast({ title: 'Archivos no válidos', description: 'Solo se pueden subir archivos de imagen.', variant: 'destructive' });
      return;
    }
    setUploading(true);
    try {
      form.setFieldValue('logoUrl', await uploadImage(file));
      form.setFields([{ name: 'logoUrl', errors: [] }]);
    } catch (error) {
      toast({ title: 'Error', description: `No se pudieron subir las imágenes: ${readApiError(error).message ?? 'inténtalo de nuevo'}`, variant: 'destructive' });
    } finally {
      setUploading(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <div className="settings-customization">
      <div>
        <Form.Item name="logoUrl" label="Logo" extra="Recomendado: imagen PNG o JPG de 200x200 píxeles.">
          <LogoField logoUrl={logoUrl} uploading={uploading} onPick={() => fileInput.current?.click()} onRemove={() => form.setFieldValue('logoUrl', null)} />
        </Form.Item>
        <input ref={fileInput} type="file" accept="image/*" style={{ display: 'none' }} data-testid="logo-input" onChange={(e) => void onFile(e.target.files?.[0])} />
        {(['primaryColor', 'secondaryColor', 'accentColor'] as const).map((field) => (
          <Form.Item
            key={field}
            name={field}
            label={{ primaryColor: 'Color principal', secondaryColor: 'Color secundario', accentColor: 'Color de acento' }[field]}
            getValueFromEvent={hexOf}
            extra={field === 'accentColor' ? 'Si un color es muy claro, la tienda lo oscurece un poco para que el texto se lea bien.' : undefined}
          >
            <ColorPicker showText format="hex" disabledAlpha aria-label={field} />
          </Form.Item>
        ))}
      </div>
      {/* The shop darkens a colour (same hue) until white text on it reads at 4.5:1; the preview shows what shoppers will see. */}
      <ShopPreview name={name} logoUrl={logoUrl} primary={readable(hexOf(primary))} secondary={readable(hexOf(secondary))} accent={readable(hexOf(accent))} />
    </div>
  );
}

function LogoField({ logoUrl, uploading, onPick, onRemove }: { logoUrl: string | null; uploading: boolean; onPick: () => void; onRemove: () => void; value?: unknown; onChange?: unknown }) {
  return (
    <Space align="center">
      {logoUrl ? <img src={logoUrl} alt="Logo de la tienda" className="settings-logo" /> : <span className="settings-logo settings-logo--empty">Sin logo</span>}
      <Button icon={<UploadOutlined />} onClick={onPick} loading={uploading}>
        {logoUrl ? 'Cambiar logo' : 'Subir logo'}
      </Button>
      {logoUrl && (
        <Button type="text" danger onClick={onRemove}>
          Quitar
        </Button>
      )}
    </Space>
  );
}

/** The shop's header and buttons in the chosen colours, as shoppers will see them. */
function ShopPreview({ name, logoUrl, primary, secondary, accent }: { name: string; logoUrl: string | null; primary: string; secondary: string; accent: string }) {
  return (
    <div className="settings-preview" aria-label="Vista previa de la tienda">
      <div className="settings-preview__header" style={{ background: `linear-gradient(135deg, ${primary}, ${secondary})` }}>
        {logoUrl ? <img src={logoUrl} alt="" className="settings-preview__logo" /> : <span className="settings-preview__logo settings-preview__logo--initial">{name.trim().charAt(0).toUpperCase() || 'T'}</span>}
        <strong>{name || 'Tu tienda'}</strong>
      </div>
      <div className="settings-preview__body">
        <div className="settings-preview__card">
          <span className="settings-preview__badge" style={{ background: accent }}>
            -10%
          </span>
          <p>Producto de ejemplo</p>
          <p style={{ color: secondary, fontWeight: 700 }}>Q45.00</p>
          <button type="button" className="settings-preview__button" style={{ background: primary }} tabIndex={-1}>
            Agregar al carrito
          </button>
        </div>
      </div>
    </div>
  );
}
