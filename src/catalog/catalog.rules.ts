import { allow, chain } from 'graphql-shield';
import { Role } from '../auth';
import { hasRole, isContentEditor } from '../permissions/rules';
import { listsOwnCourses } from './listing-ownership';

const admin = hasRole(Role.admin);
const creator = hasRole(Role.creator);

export const catalogRules = {
  Query: {
    products: allow,
    product: allow,
    marketplace: allow,
    marketplaceProduct: allow,
  },
  Mutation: {
    createProduct: admin,
    updateProduct: admin,
    publishProduct: admin,
    archiveProduct: admin,
    // A creator lists only courses they wrote (content admins review the listing after).
    submitListing: chain(creator, listsOwnCourses),
    approveListing: isContentEditor,
    rejectListing: isContentEditor,
  },
  Product: allow,
  ProductConnection: allow,
  ProductEdge: allow,
  Price: allow,
  Seller: allow,
};
