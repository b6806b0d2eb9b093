import { Input, Modal } from 'antd';
import { toast } from '../../../components/toast/toast-store';
import { useState } from 'react';
import { apiRequest } from '../../../lib/query-client';

/** The reply assistant's dialog: the customer's message in, a suggested reply out. Its own chunk, loaded on 'Responder'. */
export function CustomerAssistantDialog({ customerName, onClose }: { customerName: string; onClose: () => void }) {
  const [message, setMessage] = useState('');
  const [reply, setReply] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ask = async () => {
    setBusy(true);
    try {
      const res = await apiRequest('POST', '/api/ai/customer-response', { customerMessage: message, customerName, productName: '' });
      setReply(((await res.json()) as { suggestedResponse: string }).suggestedResponse);
    } catch {
      toast({ title: 'Error: No se pudo generar la respuesta. Intenta de nuevo.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  const copy = () => void navigator.clipboard?.writeText(reply ?? '').then(() => toast({ title: 'Respuesta copiada' }), () => undefined);
  return (
    <Modal open onCancel={onClose} title={`Asistente de respuesta para ${customerName}`} okText="Sugerir respuesta" onOk={() => void ask()} confirmLoading={busy} okButtonProps={{ disabled: !message.trim() }}>
      <Input.TextArea rows={3} value={message} onChange={(e) => setMessage(e.target.value)} placeholder="Pega aquí el mensaje del cliente" aria-label="Mensaje del cliente" />
      {reply ? (
        <div className="assistant__reply">
          <p>{reply}</p>
          <button type="button" className="assistant__copy" onClick={copy}>
            Copiar respuesta
          </button>
        </div>
      ) : null}
    </Modal>
  );
}
