import { ProductDetail } from "./product-detail";

export const metadata = { title: "Product" };

export default async function ProductPage({ params }: { params: Promise<{ product_id: string }> }) {
  const { product_id } = await params;
  return <ProductDetail productId={product_id} />;
}
