import { Button, Form } from 'antd';
import { AiMessages } from '@tiendita/contracts';
import { useGenerateDescription } from '../../ai/api/generate-description';
import { useCategories } from '../api/get-categories';
import { toast } from '../../../components/toast/toast-store';
import { ProductToasts } from '../lib/product-messages';

/** 'Generar con IA': fills the description from the name, category and price (spec 001 §2, §5, §8). */
export function GenerateDescriptionButton() {
  const form = Form.useFormInstance();
  const categories = useCategories();
  const generate = useGenerateDescription();

  const run = () => {
    const name = String(form.getFieldValue('name') ?? '').trim();
    if (!name) {
      toast({ title: ProductToasts.errorTitle, description: AiMessages.productNameFirst, variant: 'destructive' });
      return;
    }
    const categoryId = form.getFieldValue('categoryId') as string | undefined;
    const category = categories.data?.find((c) => c.id === categoryId)?.name;
    const price = form.getFieldValue('price') as number | null | undefined;
    generate.mutate(
      { productName: name, category, price: typeof price === 'number' ? price : undefined },
      {
        onSuccess: ({ description }) => {
          form.setFieldValue('description', description);
          toast({ title: AiMessages.descriptionGenerated, description: 'Revísala y ajústala si lo necesitas.' });
        },
        onError: () => toast({ title: ProductToasts.errorTitle, description: AiMessages.descriptionFailed, variant: 'destructive' }),
      },
    );
  };

  return (
    <Button size="small" onClick={run} loading={generate.isPending}>
      Generar con IA
    </Button>
  );
}
