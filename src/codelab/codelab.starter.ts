import type { Difficulty, ExerciseTest } from './codelab.entity';
import type { Language } from './sandbox';
import type { Localized } from '../kernel/localized';

export interface StarterExercise {
  slug: string;
  title: Localized;
  prompt: Localized;
  language: Language;
  starterCode: string;
  difficulty: Difficulty;
  tests: ExerciseTest[];
}

const t = (en: string, vi: string): Localized => ({ en, vi });
const io = (name: string, input: string, expected: string, hidden = false): ExerciseTest => ({
  name,
  hidden,
  input,
  expected,
  call: null,
});
const call = (name: string, fn: string, args: unknown[], expected: unknown, hidden = false): ExerciseTest => ({
  name,
  hidden,
  input: JSON.stringify(args),
  expected: JSON.stringify(expected),
  call: fn,
});

/**
 * One exercise for each concept the built-in course generator teaches (factory/providers/
 * offline-knowledge.ts), in the same order, plus JavaScript twins of the first steps. Written by
 * the CodeLab migration, once, under their slugs.
 */
export const STARTER_EXERCISES: StarterExercise[] = [
  {
    slug: 'sequence-hello',
    title: t('Hello, CodeLab', 'Xin chào, CodeLab'),
    prompt: t('Print two lines: "Hello!" and then "I can code."', 'In ra hai dòng: "Hello!" rồi "I can code."'),
    language: 'python',
    starterCode: 'print("Hello!")\n',
    difficulty: 'easy',
    tests: [io('prints both lines', '', 'Hello!\nI can code.')],
  },
  {
    slug: 'variables-greeting',
    title: t('Greet by name', 'Chào theo tên'),
    prompt: t(
      'Read a name from the input, keep it in a variable and print "Hello, <name>!".',
      'Đọc một cái tên từ đầu vào, lưu vào biến và in ra "Hello, <tên>!".',
    ),
    language: 'python',
    starterCode: 'name = input()\n',
    difficulty: 'easy',
    tests: [
      io('Lan', 'Lan\n', 'Hello, Lan!'),
      io('Minh', 'Minh\n', 'Hello, Minh!'),
      io('another name', 'An\n', 'Hello, An!', true),
    ],
  },
  {
    slug: 'types-sum',
    title: t('Add two numbers', 'Cộng hai số'),
    prompt: t(
      'Read two whole numbers, one per line, and print their sum.',
      'Đọc hai số nguyên, mỗi số một dòng, và in ra tổng của chúng.',
    ),
    language: 'python',
    starterCode: 'a = input()\nb = input()\n',
    difficulty: 'easy',
    tests: [
      io('2 + 3', '2\n3\n', '5'),
      io('negative numbers', '-4\n10\n', '6'),
      io('large numbers', '1000000\n2345678\n', '3345678', true),
    ],
  },
  {
    slug: 'input-output-age',
    title: t('Next year', 'Năm sau'),
    prompt: t(
      'Read your age and print "Next year you will be <age + 1>."',
      'Đọc tuổi của em và in ra "Next year you will be <tuổi + 1>."',
    ),
    language: 'python',
    starterCode: 'age = int(input())\n',
    difficulty: 'easy',
    tests: [io('age 10', '10\n', 'Next year you will be 11.'), io('age 13', '13\n', 'Next year you will be 14.', true)],
  },
  {
    slug: 'conditions-even-odd',
    title: t('Even or odd', 'Chẵn hay lẻ'),
    prompt: t(
      'Write a function is_even(n) that returns True when n is even and False otherwise.',
      'Viết hàm is_even(n) trả về True khi n chẵn và False khi n lẻ.',
    ),
    language: 'python',
    starterCode: 'def is_even(n):\n    pass\n',
    difficulty: 'easy',
    tests: [
      call('4 is even', 'is_even', [4], true),
      call('7 is odd', 'is_even', [7], false),
      call('0 is even', 'is_even', [0], true, true),
      call('negative odd', 'is_even', [-3], false, true),
    ],
  },
  {
    slug: 'loops-count-up',
    title: t('Count up', 'Đếm lên'),
    prompt: t(
      'Read a number n and print the numbers from 1 to n, one per line.',
      'Đọc số n và in các số từ 1 đến n, mỗi số một dòng.',
    ),
    language: 'python',
    starterCode: 'n = int(input())\n',
    difficulty: 'easy',
    tests: [
      io('n = 3', '3\n', '1\n2\n3'),
      io('n = 1', '1\n', '1'),
      io('n = 10', '10\n', '1\n2\n3\n4\n5\n6\n7\n8\n9\n10', true),
    ],
  },
  {
    slug: 'lists-largest',
    title: t('The largest number', 'Số lớn nhất'),
    prompt: t(
      'Write a function largest(numbers) that returns the largest number of a non-empty list, without using max().',
      'Viết hàm largest(numbers) trả về số lớn nhất của một danh sách khác rỗng, không dùng max().',
    ),
    language: 'python',
    starterCode: 'def largest(numbers):\n    pass\n',
    difficulty: 'medium',
    tests: [
      call('mixed', 'largest', [[3, 9, 2]], 9),
      call('one number', 'largest', [[5]], 5),
      call('all negative', 'largest', [[-8, -2, -5]], -2, true),
    ],
  },
  {
    slug: 'functions-area',
    title: t('Area of a rectangle', 'Diện tích hình chữ nhật'),
    prompt: t(
      'Write a function area(width, height) that returns the area of a rectangle.',
      'Viết hàm area(width, height) trả về diện tích hình chữ nhật.',
    ),
    language: 'python',
    starterCode: 'def area(width, height):\n    pass\n',
    difficulty: 'easy',
    tests: [
      call('3 by 4', 'area', [3, 4], 12),
      call('square', 'area', [5, 5], 25),
      call('zero width', 'area', [0, 7], 0, true),
    ],
  },
  {
    slug: 'debugging-average',
    title: t('Fix the average', 'Sửa hàm trung bình'),
    prompt: t(
      'This function should return the average of a list, but it has a bug. Find and fix it.',
      'Hàm này phải trả về trung bình cộng của một danh sách nhưng có lỗi. Hãy tìm và sửa lỗi.',
    ),
    language: 'python',
    starterCode:
      'def average(numbers):\n    total = 0\n    for n in numbers:\n        total = n\n    return total / len(numbers)\n',
    difficulty: 'medium',
    tests: [
      call('1, 2, 3', 'average', [[1, 2, 3]], 2),
      call('two numbers', 'average', [[4, 6]], 5),
      call('one number', 'average', [[7]], 7, true),
    ],
  },
  {
    slug: 'dictionaries-word-count',
    title: t('Count the words', 'Đếm từ'),
    prompt: t(
      'Write a function count_words(text) that returns a dictionary of each word and how often it appears.',
      'Viết hàm count_words(text) trả về một từ điển gồm mỗi từ và số lần nó xuất hiện.',
    ),
    language: 'python',
    starterCode: 'def count_words(text):\n    counts = {}\n    return counts\n',
    difficulty: 'medium',
    tests: [
      call('repeated word', 'count_words', ['the cat and the dog'], { the: 2, cat: 1, and: 1, dog: 1 }),
      call('empty text', 'count_words', [''], {}, true),
    ],
  },
  {
    slug: 'algorithms-sort',
    title: t('Sort without sort()', 'Sắp xếp không dùng sort()'),
    prompt: t(
      'Write a function my_sort(numbers) that returns a new list in increasing order, without sorted() or sort().',
      'Viết hàm my_sort(numbers) trả về danh sách mới theo thứ tự tăng dần, không dùng sorted() hay sort().',
    ),
    language: 'python',
    starterCode: 'def my_sort(numbers):\n    result = []\n    return result\n',
    difficulty: 'hard',
    tests: [
      call('three numbers', 'my_sort', [[3, 1, 2]], [1, 2, 3]),
      call('duplicates', 'my_sort', [[5, 1, 5, 0]], [0, 1, 5, 5]),
      call('empty', 'my_sort', [[]], [], true),
    ],
  },
  {
    slug: 'classes-counter',
    title: t('A counter class', 'Lớp đếm'),
    prompt: t(
      'Write a class Counter with increment() and value(). Then read n and print the value after n increments.',
      'Viết lớp Counter có increment() và value(). Sau đó đọc n và in giá trị sau n lần tăng.',
    ),
    language: 'python',
    starterCode: 'class Counter:\n    pass\n\nn = int(input())\n',
    difficulty: 'hard',
    tests: [io('three increments', '3\n', '3'), io('no increments', '0\n', '0', true)],
  },
  {
    slug: 'js-sequence-hello',
    title: t('Hello from JavaScript', 'Xin chào từ JavaScript'),
    prompt: t(
      'Print "Hello!" and then "I can code." with console.log.',
      'Dùng console.log in ra "Hello!" rồi "I can code."',
    ),
    language: 'javascript',
    starterCode: 'console.log("Hello!");\n',
    difficulty: 'easy',
    tests: [io('prints both lines', '', 'Hello!\nI can code.')],
  },
  {
    slug: 'js-functions-double',
    title: t('Double it', 'Gấp đôi'),
    prompt: t('Write a function double(n) that returns twice n.', 'Viết hàm double(n) trả về gấp đôi n.'),
    language: 'javascript',
    starterCode: 'function double(n) {\n}\n',
    difficulty: 'easy',
    tests: [call('2', 'double', [2], 4), call('negative', 'double', [-5], -10), call('zero', 'double', [0], 0, true)],
  },
  {
    slug: 'js-loops-sum-input',
    title: t('Sum of the numbers', 'Tổng các số'),
    prompt: t(
      'Read numbers, one per line, with readLine() until it returns null, and print their sum.',
      'Đọc các số, mỗi số một dòng, bằng readLine() cho đến khi nhận null, rồi in ra tổng.',
    ),
    language: 'javascript',
    starterCode: 'let line;\nwhile ((line = readLine()) !== null) {\n}\n',
    difficulty: 'medium',
    tests: [io('three numbers', '1\n2\n3\n', '6'), io('no numbers', '', '0', true)],
  },
];
