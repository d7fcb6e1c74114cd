import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { classify } from '../../src/factory/safety';

const categories = (text: string, minAge = 10) =>
  classify([{ field: 'content.en', text }], minAge).map((f) => f.category);

describe('the built-in safety classifier', () => {
  it.each([
    ['violence', 'The hero grabs a gun and shoots.', 'violence'],
    ['violence (vi)', 'Nhân vật cầm súng và bắt đầu giết người.', 'violence'],
    ['sexual content', 'This page shows nude pictures.', 'sexual'],
    ['sexual content (vi)', 'Nội dung khiêu dâm không dành cho trẻ em.', 'sexual'],
    ['self-harm', 'Some people think about suicide.', 'self_harm'],
    ['self-harm (vi)', 'Đừng bao giờ nghĩ đến chuyện tự tử.', 'self_harm'],
    ['hate', 'That is racist nonsense about an inferior race.', 'hate'],
    ['hate (vi)', 'Bài viết này có nội dung phân biệt chủng tộc.', 'hate'],
    ['a phone number', 'Ring 0912 345 678 for help.', 'personal_data'],
    ['a phone number (vi, +84)', 'Gọi số +84 912 345 678 để được hỗ trợ.', 'personal_data'],
    ['an e-mail address', 'Write to lan.nguyen@example.com today.', 'personal_data'],
    ['a street address', 'She lives at 221 Baker Street.', 'personal_data'],
    ['a street address (vi)', 'Nhà bạn ấy ở số 12 ngõ 34 đường Láng Hạ.', 'personal_data'],
    ['an external link', 'Download it from https://example.com/game.', 'external_link'],
    ['an external link (www)', 'Xem thêm tại www.example.vn nhé.', 'external_link'],
    ['gambling for children', 'Let us code a casino betting game.', 'age_fit'],
    ['alcohol for children (vi)', 'Viết chương trình đếm số chai rượu.', 'age_fit'],
  ])('flags %s', (_what, text, category) => {
    expect(categories(text)).toContain(category);
  });

  it('leaves ordinary programming lessons alone, in both languages', () => {
    const lessons = [
      'To stop a stuck program, kill the process and execute it again. We shoot for fewer bugs.',
      'for i in range(10):\n    print(i * 2)  # 0, 2, 4 ... prints numbers 1000000000 and 3.14159265358',
      'Vòng lặp for lặp lại câu lệnh. Hàm print() in ra màn hình. Biến lưu điểm số của người chơi.',
      'Trang bìa của cuốn sách có hình một con mèo.',
    ];
    for (const text of lessons) expect(categories(text), text).toEqual([]);
  });

  it('checks age fit only for courses open to learners under 16, and matches whole words', () => {
    expect(categories('A betting game simulation', 16)).toEqual([]);
    expect(categories('A betting game simulation', 15)).toEqual(['age_fit']);
    expect(categories('Alphabet and subsets')).toEqual([]);
  });

  it('names where it found something and quotes the passage', () => {
    const [finding] = classify(
      [{ field: 'content.vi', text: 'Bài học: gọi cho cô giáo theo số 0987.654.321 để hỏi bài.' }],
      8,
    );
    expect(finding).toEqual({
      category: 'personal_data',
      source: 'builtin',
      field: 'content.vi',
      excerpt: expect.stringContaining('0987.654.321'),
    });
  });
});

describe('factory settings', () => {
  const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/lp-config-test' };
  it('refuses a stage given to a provider without an address, naming the variable', () => {
    expect(() => loadConfig({ ...base, FACTORY_PROVIDERS: 'research=open_weight' })).toThrow(
      'OPEN_WEIGHT_LLM_URL must be set when FACTORY_PROVIDERS gives it the research stage',
    );
    expect(() => loadConfig({ ...base, FACTORY_PROVIDERS: 'content=commercial' })).toThrow(/COMMERCIAL_LLM_URL/);
    expect(() => loadConfig({ ...base, FACTORY_PROVIDERS: 'safety=open_weight' })).toThrow(
      /FACTORY_PROVIDERS must be a list/,
    );
    expect(() => loadConfig({ ...base, MONGODB_URL: 'http://mongo' })).toThrow(/MONGODB_URL must be a mongodb/);
  });
});
