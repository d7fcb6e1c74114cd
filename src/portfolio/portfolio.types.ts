import { ArrayMaxSize, IsIn, IsUUID, Matches, MaxLength } from 'class-validator';
import { Field, GraphQLISODateTime, ID, InputType, ObjectType } from 'type-graphql';
import { LocalizedTextView } from '../kernel/localized';
import { ProjectView } from '../projects';

@ObjectType('Portfolio', { description: "A learner's public page: projects and certificates they chose to show" })
export class PortfolioView {
  @Field(() => String, { nullable: true, description: 'Null until the owner chooses one' })
  handle!: string | null;

  @Field(() => String, { description: 'One line about the owner; empty when not written' })
  headline!: string;

  @Field(() => String, { description: 'Longer text about the owner; empty when not written' })
  bio!: string;

  @Field(() => [ID], { description: 'Projects the owner chose to show, in order' })
  projectIds!: string[];

  @Field(() => [ID], { description: 'Certificates the owner chose to show, in order' })
  certificateIds!: string[];

  @Field(() => String, { description: 'Who may see it: `private` or `public`' })
  visibility!: string;
}

@ObjectType('PortfolioCertificate', { description: 'A certificate as a portfolio shows it' })
export class PortfolioCertificateView {
  @Field(() => ID, { description: 'Identifier of the certificate' })
  id!: string;

  @Field(() => LocalizedTextView, {
    nullable: true,
    description: 'Title of the completed course in each language; null when the course is gone',
  })
  courseTitle!: LocalizedTextView | null;

  @Field(() => GraphQLISODateTime, { description: 'When the certificate was issued' })
  issuedAt!: Date;
}

@ObjectType('PublicPortfolio', { description: 'What anyone sees: never e-mail, birth date or country' })
export class PublicPortfolioView {
  @Field(() => String, { description: 'Name of the portfolio in its public address' })
  handle!: string;

  @Field(() => String, { description: 'Name of the owner shown to others' })
  displayName!: string;

  @Field(() => String, { description: 'One line about the owner' })
  headline!: string;

  @Field(() => String, { description: 'Longer text about the owner' })
  bio!: string;

  @Field(() => [ProjectView], { description: 'Public projects the owner chose to show, newest first' })
  projects!: ProjectView[];

  @Field(() => [PortfolioCertificateView], { description: 'Certificates the owner chose to show' })
  certificates!: PortfolioCertificateView[];
}

@InputType({ description: 'A portfolio as it should be' })
export class PortfolioInput {
  @Field(() => String, { description: 'Name in the public address, 3 to 30 of a-z, 0-9, - and _' })
  @Matches(/^[a-z0-9_-]{3,30}$/, { message: 'must be 3 to 30 of a-z, 0-9, - and _' })
  handle!: string;

  @Field(() => String, { defaultValue: '', description: 'One line about the owner, at most 200 characters' })
  @MaxLength(200)
  headline!: string;

  @Field(() => String, { defaultValue: '', description: 'Longer text about the owner, at most 5,000 characters' })
  @MaxLength(5000)
  bio!: string;

  @Field(() => [ID], { defaultValue: [], description: "Projects of the caller's to show, in order, at most 50" })
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true, message: 'must be ids' })
  projectIds!: string[];

  @Field(() => [ID], { defaultValue: [], description: "Certificates of the caller's to show, in order, at most 50" })
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true, message: 'must be ids' })
  certificateIds!: string[];

  @Field(() => String, { defaultValue: 'private', description: 'Who may see the portfolio: private or public' })
  @IsIn(['private', 'public'], { message: 'must be private or public' })
  visibility!: string;
}
