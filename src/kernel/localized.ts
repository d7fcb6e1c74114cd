import { ArrayMaxSize, Length } from 'class-validator';
import { Field, InputType, ObjectType } from 'type-graphql';

/** Every text a learner reads is written in both languages of the platform. */
export interface Localized {
  en: string;
  vi: string;
}

@ObjectType('LocalizedText', { description: 'A text in Vietnamese and English' })
export class LocalizedTextView {
  @Field(() => String, { description: 'The text in English' })
  en!: string;

  @Field(() => String, { description: 'The text in Vietnamese' })
  vi!: string;
}

@ObjectType('LocalizedList', { description: 'A list of texts in Vietnamese and English' })
export class LocalizedListView {
  @Field(() => [String], { description: 'The texts in English' })
  en!: string[];

  @Field(() => [String], { description: 'The texts in Vietnamese' })
  vi!: string[];
}

@InputType({ description: 'A text in Vietnamese and English' })
export class LocalizedTextInput {
  @Field(() => String, { description: 'The text in English' })
  @Length(1, 20_000)
  en!: string;

  @Field(() => String, { description: 'The text in Vietnamese' })
  @Length(1, 20_000)
  vi!: string;
}

@InputType({ description: 'A list of texts in Vietnamese and English' })
export class LocalizedListInput {
  @Field(() => [String], { description: 'The texts in English, at most 20' })
  @ArrayMaxSize(20)
  en!: string[];

  @Field(() => [String], { description: 'The texts in Vietnamese, at most 20' })
  @ArrayMaxSize(20)
  vi!: string[];
}
