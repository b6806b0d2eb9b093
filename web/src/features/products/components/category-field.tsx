import { useState } from 'react';
import { Button, Input, Select, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { CatalogMessages, businessTypePresets, foldSearchText } from '@tiendita/contracts';
import { toast } from '../../../components/toast/toast-store';
import { fieldErrorsOf, serverMessageOr } from '../../../lib/api';
import { useStore } from '../../store/api/get-store';
import { useCategories } from '../api/get-categories';
import { useCreateCategory } from '../api/create-category';
import { ProductToasts } from '../lib/product-messages';

/** 'none' is the form's "no category"; it is sent as no category (spec 001 §5). */
export const NO_CATEGORY = 'none';

interface CategoryFieldProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
}

/** The category select, with an inline "new category" that selects the category it creates. */
export function CategoryField({ id, value = NO_CATEGORY, onChange }: CategoryFieldProps) {
  const categories = useCategories();
  const store = useStore();
  const create = useCreateCategory();
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The store's business type suggests its usual categories; those the store already has are left out.
  const taken = new Set((categories.data ?? []).map((c) => foldSearchText(c.name.trim())));
  const suggestions = businessTypePresets(store.data?.businessType).filter((p) => !taken.has(foldSearchText(p)));

  const submit = () => {
    if (!name.trim()) {
      setError(CatalogMessages.categoryNameRequired);
      return;
    }
    setError(null);
    create.mutate(
      { name: name.trim(), storeId: store.data?.id },
      {
        onSuccess: (category) => {
          toast({ title: ProductToasts.categoryCreated, description: category.name });
          onChange?.(category.id);
          setName('');
          setAdding(false);
        },
        onError: (failure) => {
          // The new-category input shows the server's message for its name, as it does its own check's.
          setError(fieldErrorsOf(failure).name ?? null);
          toast({ title: ProductToasts.errorTitle, description: serverMessageOr(failure, ProductToasts.categoryFailed), variant: 'destructive' });
        },
      },
    );
  };

  return (
    <div className="category-field">
      <Space.Compact block>
        <Select
          id={id}
          value={value}
          onChange={onChange}
          loading={categories.isLoading}
          showSearch={{ optionFilterProp: 'label' }}
          options={[{ value: NO_CATEGORY, label: 'Sin categoría' }, ...(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))]}
        />
        <Button icon={<PlusOutlined />} onClick={() => setAdding((a) => !a)} aria-expanded={adding}>
          Nueva
        </Button>
      </Space.Compact>
      {adding && (
        <div className="category-field__new">
          <label htmlFor="new-category-name" className="visually-hidden">
            Nombre de la nueva categoría
          </label>
          <Space.Compact block>
            <Input
              id="new-category-name"
              placeholder="Nombre de la nueva categoría"
              value={name}
              maxLength={100}
              status={error ? 'error' : undefined}
              onChange={(e) => setName(e.target.value)}
              onPressEnter={(e) => {
                e.preventDefault();
                submit();
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'new-category-error' : undefined}
            />
            <Button type="primary" onClick={submit} loading={create.isPending}>
              Crear categoría
            </Button>
          </Space.Compact>
          {error && (
            <Typography.Text type="danger" id="new-category-error" role="alert">
              {error}
            </Typography.Text>
          )}
          {suggestions.length > 0 && (
            <div className="category-field__suggestions" role="group" aria-label="Categorías sugeridas">
              <Typography.Text type="secondary">Sugeridas:</Typography.Text>
              {suggestions.map((preset) => (
                <Button
                  key={preset}
                  size="small"
                  onClick={() => {
                    setName(preset);
                    setError(null);
                  }}
                >
                  {preset}
                </Button>
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
