import { useMemo, useRef, useState } from 'react';
import { Alert, Button, Modal, Progress, Segmented, Spin, Table, Tag, Typography, Upload } from 'antd';
import type { TableProps } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { IMPORT_COLUMNS, ImportMessages, type ImportPreviewResponse, type ImportPreviewRow, type ImportRowResult, type ImportRowStatus, MAX_IMPORT_ROWS } from '@tiendita/contracts';
import { toast } from '../../../components/toast/toast-store';
import { formatCount, formatMoney } from '../../../lib/format';
import { isApiError, serverMessageOr } from '../../../lib/api';
import { randomUuid } from '../../../lib/uuid';
import { useMediaQuery } from '../../shell/use-media-query';
import { importRowOf, importTemplateUrl, previewImport, useRunImport } from '../api/import-products';

const MAX_FILE_BYTES = 10 * 1024 * 1024;
const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const STATUS: Record<ImportRowStatus, { label: string; color: string }> = {
  new: { label: 'Nuevo', color: 'green' },
  update: { label: 'Actualizar', color: 'blue' },
  unchanged: { label: 'Sin cambios', color: 'default' },
  error: { label: 'Error', color: 'red' },
};

type Filter = 'all' | ImportRowStatus;
type Step =
  | { name: 'pick'; reading: boolean; error: string | null }
  | { name: 'preview'; preview: ImportPreviewResponse }
  | { name: 'running'; preview: ImportPreviewResponse; total: number; done: number }
  | { name: 'done'; preview: ImportPreviewResponse; results: ImportRowResult[]; failure: string | null; total: number };

const PICK: Step = { name: 'pick', reading: false, error: null };
const count = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** The message of a refused file: the server's Spanish reason, or the size limit the gateway answers with 413. */
function fileError(error: unknown): string {
  if (isApiError(error) && error.status === 413) return ImportMessages.tooLarge;
  return serverMessageOr(error, 'No se pudo leer el archivo. Inténtalo de nuevo.');
}

/** What a row will change (update), or why it cannot be imported (error). */
function RowDetail({ row }: { row: ImportPreviewRow }) {
  if (row.status === 'error') {
    return (
      <ul className="import-preview__errors">
        {row.errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    );
  }
  if (row.status === 'update') {
    return (
      <ul className="import-preview__changes">
        {row.changes.map((c) => (
          <li key={c.field}>
            {c.field}: {c.from} → <strong>{c.to}</strong>
          </li>
        ))}
      </ul>
    );
  }
  if (row.status === 'new') return <span>{row.category ? `Categoría: ${row.category}` : 'Sin categoría'}</span>;
  return <Typography.Text type="secondary">Igual que en tu catálogo</Typography.Text>;
}

/**
 * 'Importar productos' (the Products page's Import button): the template, the file (CSV or Excel),
 * the preview of every row — new, update, unchanged, or error with its reason — and, once the owner
 * confirms, the import in chunks with a progress bar. Nothing is written before the confirmation.
 */
export function ImportProductsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [step, setStep] = useState<Step>(PICK);
  const [filter, setFilter] = useState<Filter>('all');
  const importId = useRef(randomUuid());
  const reading = useRef<AbortController | null>(null);
  const runImport = useRunImport();

  const reset = () => {
    reading.current?.abort();
    importId.current = randomUuid();
    setFilter('all');
    setStep(PICK);
  };
  const close = () => {
    if (step.name === 'running') return;
    reset();
    onClose();
  };

  const read = async (file: File) => {
    if (file.size > MAX_FILE_BYTES) {
      setStep({ name: 'pick', reading: false, error: ImportMessages.tooLarge });
      return;
    }
    reading.current?.abort();
    const controller = new AbortController();
    reading.current = controller;
    setStep({ name: 'pick', reading: true, error: null });
    try {
      const preview = await previewImport(file, controller.signal);
      importId.current = randomUuid();
      setFilter(preview.summary.error > 0 ? 'error' : 'all');
      setStep({ name: 'preview', preview });
    } catch (error) {
      if (controller.signal.aborted) return;
      setStep({ name: 'pick', reading: false, error: fileError(error) });
    }
  };

  const confirm = async (preview: ImportPreviewResponse) => {
    const rows = preview.rows.filter((r) => r.status === 'new' || r.status === 'update').map(importRowOf);
    setStep({ name: 'running', preview, total: rows.length, done: 0 });
    let done: ImportRowResult[] = [];
    try {
      done = await runImport(importId.current, rows, (n, results) => {
        done = results;
        setStep({ name: 'running', preview, total: rows.length, done: n });
      });
      const created = done.filter((r) => r.status === 'created').length;
      const updated = done.filter((r) => r.status === 'updated').length;
      toast({ title: 'Productos importados', description: `${count(created, 'creado', 'creados')}, ${count(updated, 'actualizado', 'actualizados')}.` });
      setStep({ name: 'done', preview, results: done, failure: null, total: rows.length });
    } catch (error) {
      const reason = serverMessageOr(error, 'No se pudo completar la importación.');
      toast({ title: 'Error', description: reason, variant: 'destructive' });
      setStep({ name: 'done', preview, results: done, failure: reason, total: rows.length });
    }
  };

  const footer = (() => {
    switch (step.name) {
      case 'pick':
        return [
          <Button key="close" onClick={close}>
            Cancelar
          </Button>,
        ];
      case 'preview': {
        const n = step.preview.summary.new + step.preview.summary.update;
        return [
          <Button key="again" onClick={reset}>
            Elegir otro archivo
          </Button>,
          <Button key="import" type="primary" disabled={n === 0} onClick={() => void confirm(step.preview)}>
            {n === 0 ? 'No hay cambios que importar' : `Importar ${count(n, 'producto', 'productos')}`}
          </Button>,
        ];
      }
      case 'running':
        return [
          <Button key="wait" type="primary" loading>
            Importando…
          </Button>,
        ];
      case 'done':
        return [
          <Button key="again" onClick={reset}>
            Importar otro archivo
          </Button>,
          <Button key="close" type="primary" onClick={close}>
            Cerrar
          </Button>,
        ];
    }
  })();

  return (
    <Modal open={open} title="Importar productos" onCancel={close} footer={footer} width={960} destroyOnHidden maskClosable={false} closable={step.name !== 'running'} className="import-modal">
      {step.name === 'pick' && <PickFile reading={step.reading} error={step.error} onFile={(file) => void read(file)} />}
      {step.name === 'preview' && <Preview preview={step.preview} filter={filter} onFilter={setFilter} />}
      {step.name === 'running' && (
        <div className="import-progress" aria-live="polite">
          <Progress percent={step.total ? Math.floor((step.done / step.total) * 100) : 0} status="active" />
          <p>
            Importando… {formatCount(step.done)} de {count(step.total, 'producto', 'productos')}. No cierres esta ventana.
          </p>
        </div>
      )}
      {step.name === 'done' && <Done results={step.results} failure={step.failure} total={step.total} />}
    </Modal>
  );
}

function PickFile({ reading, error, onFile }: { reading: boolean; error: string | null; onFile: (file: File) => void }) {
  return (
    <div className="import-pick">
      <Typography.Paragraph>
        Sube un archivo CSV o Excel (.xlsx) con una fila por producto y estas columnas: {IMPORT_COLUMNS.join(', ')}. Si el SKU ya está en tu catálogo, la fila
        actualiza ese producto; si no, se crea uno nuevo. Antes de guardar verás qué pasará con cada fila.
      </Typography.Paragraph>
      <div className="import-pick__templates">
        <Button icon={<DownloadOutlined />} href={importTemplateUrl('xlsx')} download="plantilla-productos.xlsx">
          Plantilla de Excel
        </Button>
        <Button icon={<DownloadOutlined />} href={importTemplateUrl('csv')} download="plantilla-productos.csv">
          Plantilla CSV
        </Button>
      </div>
      <Spin spinning={reading} description="Leyendo el archivo…">
        <Upload.Dragger
          accept={ACCEPT}
          multiple={false}
          showUploadList={false}
          disabled={reading}
          beforeUpload={(file) => {
            onFile(file);
            return Upload.LIST_IGNORE;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">Haz clic o arrastra tu archivo aquí</p>
          <p className="ant-upload-hint">CSV o Excel (.xlsx), hasta {formatCount(MAX_IMPORT_ROWS)} productos y 10 MB.</p>
        </Upload.Dragger>
      </Spin>
      {error && <Alert type="error" showIcon title="No se pudo importar el archivo" description={error} className="import-pick__error" role="alert" />}
    </div>
  );
}

function Preview({ preview, filter, onFilter }: { preview: ImportPreviewResponse; filter: Filter; onFilter: (f: Filter) => void }) {
  const { summary } = preview;
  const rows = useMemo(() => (filter === 'all' ? preview.rows : preview.rows.filter((r) => r.status === filter)), [preview.rows, filter]);
  // On a phone each row is two cells (row and verdict; product and detail), so the table fits the dialog.
  const phone = useMediaQuery('(max-width: 640px)');
  const narrow: TableProps<ImportPreviewRow>['columns'] = [
    {
      title: 'Fila',
      key: 'row',
      width: 96,
      render: (_, r) => (
        <div className="import-preview__verdict">
          <span>{r.row}</span>
          <Tag color={STATUS[r.status].color}>{STATUS[r.status].label}</Tag>
        </div>
      ),
    },
    {
      title: 'Producto',
      key: 'product',
      render: (_, r) => (
        <div className="import-preview__product">
          <strong>{r.name ?? '—'}</strong>
          {r.sku && <span>SKU: {r.sku}</span>}
          <RowDetail row={r} />
        </div>
      ),
    },
  ];
  const wide: TableProps<ImportPreviewRow>['columns'] = [
    { title: 'Fila', dataIndex: 'row', width: 64 },
    { title: 'Estado', dataIndex: 'status', width: 110, render: (s: ImportRowStatus) => <Tag color={STATUS[s].color}>{STATUS[s].label}</Tag> },
    {
      title: 'Producto',
      key: 'product',
      render: (_, r) => (
        <div className="import-preview__product">
          <strong>{r.name ?? '—'}</strong>
          {r.sku && <span>SKU: {r.sku}</span>}
        </div>
      ),
    },
    { title: 'Precio', dataIndex: 'price', width: 110, align: 'right', render: (v?: number) => (v === undefined ? '—' : formatMoney(v)) },
    { title: 'Stock', dataIndex: 'stock', width: 80, align: 'right', render: (v?: number) => (v === undefined ? '—' : formatCount(v)) },
    { title: 'Detalle', key: 'detail', render: (_, r) => <RowDetail row={r} /> },
  ];
  return (
    <div className="import-preview">
      <p className="import-preview__file">
        {preview.fileName ?? 'Archivo'} · {count(preview.totalRows, 'fila', 'filas')}
      </p>
      <ul className="import-preview__summary" aria-label="Resumen de la importación">
        <li>
          <Tag color="green">{count(summary.new, 'nuevo', 'nuevos')}</Tag>
        </li>
        <li>
          <Tag color="blue">{count(summary.update, 'por actualizar', 'por actualizar')}</Tag>
        </li>
        <li>
          <Tag>{count(summary.unchanged, 'sin cambios', 'sin cambios')}</Tag>
        </li>
        <li>
          <Tag color="red">{count(summary.error, 'con errores', 'con errores')}</Tag>
        </li>
      </ul>
      {preview.newCategories.length > 0 && <Typography.Paragraph>Se crearán las categorías: {preview.newCategories.join(', ')}.</Typography.Paragraph>}
      {summary.error > 0 && (
        <Alert
          type="warning"
          showIcon
          title={summary.error === 1 ? 'La fila con errores no se importará.' : `Las ${formatCount(summary.error)} filas con errores no se importarán.`}
          description="Corrígelas en el archivo y vuelve a importarlo: lo ya importado quedará sin cambios."
        />
      )}
      <Segmented<Filter>
        className="import-preview__filter"
        value={filter}
        onChange={onFilter}
        options={[
          { value: 'all', label: `Todas (${formatCount(preview.rows.length)})` },
          { value: 'new', label: `Nuevos (${formatCount(summary.new)})` },
          { value: 'update', label: `Actualizar (${formatCount(summary.update)})` },
          { value: 'unchanged', label: `Sin cambios (${formatCount(summary.unchanged)})` },
          { value: 'error', label: `Errores (${formatCount(summary.error)})` },
        ]}
      />
      <Table<ImportPreviewRow>
        size="small"
        rowKey="row"
        dataSource={rows}
        columns={phone ? narrow : wide}
        pagination={rows.length > 10 ? { pageSize: 10, showSizeChanger: false, size: 'small' } : false}
        className="import-preview__table"
        aria-label="Vista previa de la importación"
      />
    </div>
  );
}

function Done({ results, failure, total }: { results: ImportRowResult[]; failure: string | null; total: number }) {
  const tally = (s: ImportRowResult['status']) => results.filter((r) => r.status === s).length;
  const errors = results.filter((r) => r.status === 'error');
  const summary = `${count(tally('created'), 'producto creado', 'productos creados')}, ${count(tally('updated'), 'actualizado', 'actualizados')}, ${count(tally('unchanged'), 'sin cambios', 'sin cambios')}.`;
  return (
    <div className="import-done">
      {failure ? (
        <Alert
          type="error"
          showIcon
          title="La importación se detuvo"
          description={`${failure} Se procesaron ${formatCount(results.length)} de ${count(total, 'producto', 'productos')} (${summary}) Vuelve a importar el archivo para completar el resto: lo ya importado quedará sin cambios.`}
        />
      ) : (
        <Alert type="success" showIcon title="Importación terminada" description={summary} />
      )}
      {errors.length > 0 && (
        <Table<ImportRowResult>
          size="small"
          rowKey="row"
          dataSource={errors}
          pagination={errors.length > 10 ? { pageSize: 10 } : false}
          columns={[
            { title: 'Fila', dataIndex: 'row', width: 64 },
            { title: 'No se importó', dataIndex: 'message' },
          ]}
        />
      )}
    </div>
  );
}
