import { allow } from 'graphql-shield';
import { mayStoreLearnerData } from '../consent';
import { isAuthenticated } from '../permissions/rules';

export const portfolioRules = {
  Query: {
    myPortfolio: isAuthenticated,
    // Anyone: the service shows a portfolio only while it is public.
    portfolio: allow,
  },
  Mutation: {
    updatePortfolio: mayStoreLearnerData,
  },
  Portfolio: allow,
  PortfolioCertificate: allow,
  PublicPortfolio: allow,
};
