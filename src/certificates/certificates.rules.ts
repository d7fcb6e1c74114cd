import { allow } from 'graphql-shield';
import { isSelfOrGuardian } from '../guardian';
import { isAuthenticated } from '../permissions/rules';

export const certificatesRules = {
  Query: { myCertificates: isAuthenticated, certificate: isAuthenticated, verifyCertificate: allow },
  Certificate: allow,
  CertificateCheck: allow,
  CertificateConnection: allow,
  CertificateEdge: allow,
  User: { certificates: isSelfOrGuardian },
};
