import { HomeView } from "./home-view";

export const metadata = { title: "Home" };

export default function HomePage() {
  return <HomeView />;
}
