import { Button, Input, Modal, Space, Typography } from 'antd';
import { SOCIAL_PLATFORM_LABELS, SOCIAL_PLATFORMS, type SocialPlatform, whatsappShareLink } from '@tiendita/contracts';
import { useState } from 'react';
import { apiRequest } from '../../../lib/query-client';

/** A share link per platform (Instagram has none: its text is copied instead). */
function shareLink(platform: SocialPlatform, url: string, text: string): string | null {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(text);
  switch (platform) {
    case 'whatsapp':
      return whatsappShareLink(text);
    case 'facebook':
      return `https://www.facebook.com/sharer/sharer.php?u=${u}`;
    case 'twitter':
      return `https://twitter.com/intent/tweet?text=${t}`;
    case 'telegram':
      return `https://t.me/share/url?url=${u}&text=${t}`;
    case 'instagram':
      return null;
  }
}

/**
 * 'Compartir tienda' (spec 000 §2): the link to copy, and one button per platform of contracts'
 * SOCIAL_PLATFORMS (the list the server's caption endpoint accepts). Each platform's AI caption is
 * asked for when the dialog opens; a failed one falls back to a default text.
 */
export function ShareDialog({ open, onClose, onShared, url, name }: { open: boolean; onClose: () => void; onShared: () => void; url: string; name: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const [captions, setCaptions] = useState<Partial<Record<SocialPlatform, string>>>({});
  const [platform, setPlatform] = useState<SocialPlatform>('whatsapp');
  const fallback = `¡Visita ${name}! Haz tu pedido en línea: ${url}`;
  const textFor = (p: SocialPlatform) => captions[p] ?? fallback;

  const copy = async (which: string, value: string, ms: number) => {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    setCopied(which);
    onShared();
    setTimeout(() => setCopied((c) => (c === which ? null : c)), ms);
  };
  const loadCaptions = () =>
    SOCIAL_PLATFORMS.forEach(async (p) => {
      try {
        const res = await apiRequest('POST', '/api/ai/social-caption', { type: 'store', platform: p, data: { name, url } });
        const caption = ((await res.json()) as { caption: string }).caption;
        if (caption) setCaptions((c) => ({ ...c, [p]: caption }));
      } catch {
        // The default text stands in (spec 000 §2).
      }
    });
  const share = (p: SocialPlatform) => {
    setPlatform(p);
    const link = shareLink(p, url, textFor(p));
    if (link) {
      window.open(link, '_blank', 'noopener');
      onShared();
    } else void copy(p, textFor(p), 500);
  };

  return (
    <Modal open={open} onCancel={onClose} footer={null} title="Compartir tienda" afterOpenChange={(o) => o && Object.keys(captions).length === 0 && loadCaptions()}>
      <Typography.Paragraph>{textFor(platform)}</Typography.Paragraph>
      <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
        <Input readOnly value={url} aria-label="Enlace de la tienda" />
        <Button onClick={() => void copy('link', url, 2000)}>{copied === 'link' ? '¡Copiado!' : 'Copiar'}</Button>
      </Space.Compact>
      <Space wrap>
        {SOCIAL_PLATFORMS.map((p) => (
          <Button key={p} onClick={() => share(p)} onFocus={() => setPlatform(p)} onMouseEnter={() => setPlatform(p)}>
            {p === 'instagram' && copied === 'instagram' ? '¡Copiado para Instagram!' : SOCIAL_PLATFORM_LABELS[p]}
          </Button>
        ))}
      </Space>
    </Modal>
  );
}
