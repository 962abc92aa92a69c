import { ProductsView } from "./products-view";

export const metadata = { title: "Products" };

export default function ProductsPage() {
  return <ProductsView />;
}
