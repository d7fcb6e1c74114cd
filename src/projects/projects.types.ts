import { ArrayMaxSize, ArrayMinSize, IsIn, Length, Matches, MaxLength, ValidateNested } from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, ObjectType } from 'type-graphql';
import { languages } from '../codelab';
import { Node } from '../kernel/node';
import { Connection } from '../kernel/pagination';

@ObjectType('ProjectFile', { description: 'A file of a code project' })
export class ProjectFileView {
  @Field(() => String, { description: 'Relative path of the file in the project, such as main.py' })
  path!: string;

  @Field(() => String, { description: 'Text of the file' })
  content!: string;
}

@ObjectType('Project', { description: "A learner's code project", implements: Node })
export class ProjectView implements Node {
  @Field(() => ID, { description: 'Identifier of the project' })
  id!: string;

  @Field(() => ID, { description: 'Account of the learner who owns the project' })
  ownerId!: string;

  @Field(() => String, { description: 'Title of the project' })
  title!: string;

  @Field(() => String, { description: 'What the project does; empty when not written' })
  description!: string;

  @Field(() => String, { description: 'Programming language of the project, python or javascript' })
  language!: string;

  @Field(() => [ProjectFileView], { description: 'The files of the project' })
  files!: ProjectFileView[];

  @Field(() => String, { description: 'Who may see it: `private`, `unlisted` (whoever has the link) or `public`' })
  visibility!: string;

  @Field(() => ID, { nullable: true, description: 'The project this one was copied from; null when it is an original' })
  remixOf!: string | null;

  @Field(() => GraphQLISODateTime, { description: 'When the project was created' })
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, { description: 'When the project was last saved' })
  updatedAt!: Date;
}

export const ProjectConnection = Connection(ProjectView, 'Project');

@InputType({ description: 'A file of a code project' })
export class ProjectFileInput {
  @Field(() => String, { description: 'Relative path of the file, such as main.py, of letters, digits, _, -, . and /' })
  @Matches(/^(?!\/)(?!.*\.\.)[A-Za-z0-9_\-./]{1,200}$/, {
    message: 'must be a relative path of letters, digits, _, -, . and /',
  })
  path!: string;

  @Field(() => String, { description: 'Text of the file' })
  content!: string;
}

@InputType({ description: 'A code project to create or save' })
export class ProjectInput {
  @Field(() => String, { description: 'Title of the project, 1 to 200 characters' })
  @Length(1, 200)
  title!: string;

  @Field(() => String, { defaultValue: '', description: 'What the project does, at most 5,000 characters' })
  @MaxLength(5000)
  description!: string;

  @Field(() => String, { description: 'Programming language of the project, python or javascript' })
  @IsIn(languages, { message: 'must be python or javascript' })
  language!: string;

  @Field(() => [ProjectFileInput], { description: 'The files of the project, at most 50' })
  @ArrayMinSize(1)
  @ArrayMaxSize(50, { message: 'at most 50 files' })
  @ValidateNested({ each: true })
  files!: ProjectFileInput[];

  @Field(() => String, {
    defaultValue: 'private',
    description: 'Who may see the project: private, unlisted (whoever has the link) or public',
  })
  @IsIn(['private', 'unlisted', 'public'], { message: 'must be private, unlisted or public' })
  visibility!: string;
}
