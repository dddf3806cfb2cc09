// The data of the public gateway benchmark (graphql-hive/graphql-gateways-benchmark, subgraphs/*.rs),
// transcribed so our subgraphs answer exactly what its TestQuery expects.
export interface User {
  id: string;
  name: string;
  username: string;
  birthday: number;
}
export interface Product {
  upc: string;
  name: string;
  price: number;
  weight: number;
}
export interface Stock {
  upc: string;
  inStock: boolean;
}
export interface Review {
  id: string;
  body: string;
  productUpc: string;
}

const user = (id: string, name: string, username: string): User => ({ id, name, username, birthday: 1234567890 });
export const users: User[] = [
  user('1', 'Uri Goldshtein', 'urigo'),
  user('2', 'Dotan Simha', 'dotansimha'),
  user('3', 'Kamil Kisiela', 'kamilkisiela'),
  user('4', 'Arda Tanrikulu', 'ardatan'),
  user('5', 'Gil Gardosh', 'gilgardosh'),
  user('6', 'Laurin Quast', 'laurin'),
];

const product = (upc: string, name: string, price: number, weight: number): Product => ({ upc, name, price, weight });
export const products: Product[] = [
  product('1', 'Table', 899, 100),
  product('2', 'Couch', 1299, 1000),
  product('3', 'Glass', 15, 20),
  product('4', 'Chair', 499, 100),
  product('5', 'TV', 1299, 1000),
  product('6', 'Lamp', 6999, 300),
  product('7', 'Grill', 3999, 2000),
  product('8', 'Fridge', 100000, 6000),
  product('9', 'Sofa', 9999, 800),
];

const inStock = new Set(['1', '5', '6', '7', '9']);
export const inventory: Stock[] = products.map((p) => ({ upc: p.upc, inStock: inStock.has(p.upc) }));

const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.';
const SED_UT =
  'Sed ut perspiciatis unde omnis iste natus error sit voluptatem accusantium doloremque laudantium, totam rem aperiam, eaque ipsa quae ab illo inventore veritatis et quasi architecto beatae vitae dicta sunt explicabo. Nemo enim ipsam voluptatem quia voluptas sit aspernatur aut odit aut fugi';
const SED_QUIA =
  'sed quia consequuntur magni dolores eos qui ratione voluptatem sequi nesciunt. Neque porro quisquam est, qui dolorem ipsum quia dolor sit amet, consectetur, adipisci velit, sed quia non numquam eius modi tempora incidunt ut labore et dolore magnam aliquam quaerat voluptatem.';
const UT_ENIM =
  'Ut enim ad minima veniam, quis nostrum exercitationem ullam corporis suscipit laboriosam, nisi ut aliquid ex ea commodi consequatur? Quis autem';
const AT_VERO =
  'At vero eos et accusamus et iusto odio dignissimos ducimus qui blanditiis praesentium voluptatum deleniti atque corrupti quos dolores et quas molestias excepturi sint occaecati cupiditate non provident, similique sunt in culpa qui officia deserunt mollitia animi, id est laborum et dolorum fuga. Et harum quidem rerum facilis est et expedita distinctio. Nam libero tempore, cum soluta nobis est eligendi optio cumque nihil impedit quo minus id quod maxime placeat facere possimus, omnis voluptas assumenda est, omnis dolor repellendus. Temporibus autem quibusdam et aut officiis debitis aut rerum necessitatibus saepe eveniet ut et voluptates repudiandae sint et molestiae non recusandae. Itaque earum rerum hic tenetur a sapiente delectus, ut aut reiciendis voluptatibus maiores alias consequatur aut perferendis doloribus asperiores repellat.';

const bodies: [string, string][] = [
  [LOREM, '1'],
  [SED_UT, '1'],
  [SED_QUIA, '1'],
  [UT_ENIM, '1'],
  [LOREM, '2'],
  [SED_UT, '2'],
  [SED_QUIA, '2'],
  [UT_ENIM, '2'],
  [UT_ENIM, '3'],
  [UT_ENIM, '4'],
  [AT_VERO, '4'],
];
export const reviews: Review[] = bodies.map(([body, productUpc], i) => ({ id: String(i + 1), body, productUpc }));
