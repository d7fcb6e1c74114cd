import { allow } from 'graphql-shield';
import { isAuthenticated } from '../permissions/rules';

export const certificatesRules = {
  Query: { myCertificates: isAuthenticated, certificate: isAuthenticated, verifyCertificate: allow },
  Certificate: allow,
  CertificateCheck: allow,
};
