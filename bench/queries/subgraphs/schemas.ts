import { parse, type GraphQLSchema } from 'graphql';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { users, products, inventory, reviews, type Review } from './data.js';

// Federation 1 SDL, like the benchmark's own subgraphs: every gateway in the comparison
// (Mercurius included) composes it from `_service { sdl }` or from the supergraph.
const sdl = {
  accounts: `
    extend type Query { me: User user(id: ID!): User users: [User] }
    type User @key(fields: "id") { id: ID! name: String username: String birthday: Int }`,
  inventory: `
    extend type Product @key(fields: "upc") {
      upc: String! @external weight: Int @external price: Int @external
      inStock: Boolean shippingEstimate: Int @requires(fields: "price weight")
    }`,
  products: `
    extend type Query { topProducts(first: Int = 5): [Product] }
    type Product @key(fields: "upc") { upc: String! name: String price: Int weight: Int }`,
  reviews: `
    type Review @key(fields: "id") { id: ID! body: String product: Product author: User @provides(fields: "username") }
    extend type User @key(fields: "id") { id: ID! @external username: String @external reviews: [Review] }
    extend type Product @key(fields: "upc") { upc: String! @external reviews: [Review] }`,
};
export type BenchSubgraph = keyof typeof sdl;
export const benchSubgraphs = Object.keys(sdl) as BenchSubgraph[];
export const benchSdl = (name: BenchSubgraph) => sdl[name];

const firstTwo = () => reviews.slice(0, 2);
const reviewOut = (r: Review) => ({ id: r.id, body: r.body, product: { upc: r.productUpc } });

const resolvers = {
  accounts: {
    Query: {
      me: () => users[0],
      user: (_: unknown, { id }: { id: string }) => users.find((u) => u.id === id),
      users: () => users,
    },
    User: { __resolveReference: (ref: { id: string }) => users.find((u) => u.id === ref.id) },
  },
  inventory: {
    // as in the benchmark's inventory: its own records carry no price or weight (the required ones
    // are not read), so every estimate is null, which is what its TestQuery expects
    Product: {
      __resolveReference: (ref: { upc: string }) => ({
        ...inventory.find((p) => p.upc === ref.upc),
        price: null,
        weight: null,
      }),
      shippingEstimate: (p: { price: number | null; weight: number | null }) =>
        p.price == null ? null : p.price > 1000 ? 0 : p.weight == null ? null : Math.floor(p.weight / 2),
    },
  },
  products: {
    Query: { topProducts: (_: unknown, { first }: { first: number }) => products.slice(0, first) },
    Product: { __resolveReference: (ref: { upc: string }) => products.find((p) => p.upc === ref.upc) },
  },
  reviews: {
    Review: {
      __resolveReference: (ref: { id: string }) => {
        const r = reviews.find((x) => x.id === ref.id);
        return r && reviewOut(r);
      },
      author: () => ({ id: '1', username: 'urigo', reviews: firstTwo().map(reviewOut) }),
    },
    User: {
      __resolveReference: (ref: { id: string }) => ({
        id: ref.id,
        username: 'user',
        reviews: firstTwo().map(reviewOut),
      }),
    },
    Product: { reviews: (p: { upc: string }) => reviews.filter((r) => r.productUpc === p.upc).map(reviewOut) },
  },
};

export const benchSchema = (name: BenchSubgraph): GraphQLSchema =>
  buildSubgraphSchema({ typeDefs: parse(sdl[name]), resolvers: resolvers[name] });
