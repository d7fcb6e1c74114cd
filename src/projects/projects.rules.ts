import { allow } from 'graphql-shield';
import { mayStoreLearnerData } from '../consent';
import { learnerActive } from '../guardian';
import { isAuthenticated, isSelf } from '../permissions/rules';

export const projectsRules = {
  Query: {
    myProjects: isAuthenticated,
    // Anyone: the service shows a private project to its owner and the owner's guardians only.
    project: allow,
  },
  Mutation: {
    createProject: mayStoreLearnerData,
    updateProject: mayStoreLearnerData,
    deleteProject: isAuthenticated,
    runProject: learnerActive,
    remixProject: mayStoreLearnerData,
  },
  Project: allow,
  ProjectFile: allow,
  ProjectConnection: allow,
  ProjectEdge: allow,
  User: { projects: isSelf },
};
