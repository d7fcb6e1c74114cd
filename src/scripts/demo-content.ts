import { CourseLevel } from '../courses';
import type { Services } from '../kernel/services';

type NewCourse = Parameters<Services['courses']['createCourse']>[0];
type NewExercise = Parameters<Services['codelab']['createExercise']>[0];

const text = (en: string, vi: string) => ({ en, vi });

/** A demo course: what the catalog shows, its lessons, and one CodeLab exercise tied to its first lesson. */
export interface DemoCourse {
  course: NewCourse;
  exercise: Omit<NewExercise, 'courseId' | 'lessonId'>;
  /** In VND: a course with a price is sold as a product and opens only with an entitlement. */
  price?: number;
}

const lesson = (
  title: [string, string],
  content: [string, string],
  question: [string, string],
  options: [string, string][],
  answerIndex: number,
) => ({
  title: text(...title),
  objectives: { en: [title[0]], vi: [title[1]] },
  content: text(...content),
  quiz: {
    questions: [
      {
        prompt: text(...question),
        options: options.map((o) => text(...o)),
        answerIndex,
        explanation: text(content[0], content[1]),
      },
    ],
  },
});

/**
 * Three courses for ages 10 to 17, the last one paid. Titles identify them: a second run finds them
 * by their English title and makes nothing again.
 */
export const demoCourses: DemoCourse[] = [
  {
    course: {
      title: text('Demo: Python first steps', 'Demo: Những bước đầu với Python'),
      description: text('Print, variables and loops in Python.', 'In, biến và vòng lặp trong Python.'),
      level: CourseLevel.beginner,
      minAge: 10,
      maxAge: 17,
      language: 'en',
      published: true,
      lessons: [
        lesson(
          ['Printing', 'In ra màn hình'],
          ['print() shows a value.', 'print() hiển thị một giá trị.'],
          ['What shows a value?', 'Lệnh nào hiển thị giá trị?'],
          [
            ['print()', 'print()'],
            ['input()', 'input()'],
          ],
          0,
        ),
        lesson(
          ['Variables', 'Biến'],
          ['A variable keeps a value under a name.', 'Biến giữ một giá trị dưới một cái tên.'],
          ['x = 3 makes x...', 'x = 3 làm cho x...'],
          [
            ['3', '3'],
            ['x', 'x'],
          ],
          0,
        ),
      ],
    },
    exercise: {
      title: text('Double it', 'Nhân đôi'),
      prompt: text('Read a number n and print 2n.', 'Đọc số n và in ra 2n.'),
      language: 'python',
      starterCode: 'n = int(input())\n',
      difficulty: 'easy',
      tests: [
        { name: 'two', hidden: false, input: '2\n', expected: '4\n' },
        { name: 'twenty-one', hidden: true, input: '21\n', expected: '42\n' },
      ],
    },
  },
  {
    course: {
      title: text('Demo: JavaScript for the web', 'Demo: JavaScript cho web'),
      description: text('Values, functions and the console.', 'Giá trị, hàm và console.'),
      level: CourseLevel.beginner,
      minAge: 10,
      maxAge: 17,
      language: 'vi',
      published: true,
      lessons: [
        lesson(
          ['The console', 'Console'],
          ['console.log() writes a line.', 'console.log() viết một dòng.'],
          ['What writes a line?', 'Lệnh nào viết một dòng?'],
          [
            ['console.log()', 'console.log()'],
            ['alert', 'alert'],
          ],
          0,
        ),
        lesson(
          ['Functions', 'Hàm'],
          ['A function names a piece of work.', 'Hàm đặt tên cho một việc.'],
          ['A function is...', 'Hàm là...'],
          [
            ['a named piece of work', 'một việc có tên'],
            ['a number', 'một con số'],
          ],
          0,
        ),
      ],
    },
    exercise: {
      title: text('Say hello', 'Chào bạn'),
      prompt: text('Read a name and print "Hello, <name>!".', 'Đọc một tên và in ra "Hello, <tên>!".'),
      language: 'javascript',
      starterCode: "const name = require('fs').readFileSync(0, 'utf8').trim();\n",
      difficulty: 'easy',
      tests: [
        { name: 'lan', hidden: false, input: 'Lan\n', expected: 'Hello, Lan!\n' },
        { name: 'minh', hidden: true, input: 'Minh\n', expected: 'Hello, Minh!\n' },
      ],
    },
  },
  {
    course: {
      title: text('Demo: Games with Python (paid)', 'Demo: Làm trò chơi với Python (trả phí)'),
      description: text('Random numbers, guessing games and scores.', 'Số ngẫu nhiên, trò chơi đoán số và điểm.'),
      level: CourseLevel.intermediate,
      minAge: 12,
      maxAge: 17,
      language: 'en',
      published: true,
      lessons: [
        lesson(
          ['Random numbers', 'Số ngẫu nhiên'],
          ['random.randint(a, b) picks a whole number.', 'random.randint(a, b) chọn một số nguyên.'],
          ['randint picks...', 'randint chọn...'],
          [
            ['a whole number', 'một số nguyên'],
            ['a word', 'một từ'],
          ],
          0,
        ),
        lesson(
          ['Keeping score', 'Tính điểm'],
          ['A loop adds to the score each turn.', 'Mỗi lượt, vòng lặp cộng thêm vào điểm.'],
          ['The score grows in...', 'Điểm tăng trong...'],
          [
            ['a loop', 'một vòng lặp'],
            ['a comment', 'một chú thích'],
          ],
          0,
        ),
      ],
    },
    exercise: {
      title: text('Higher or lower', 'Cao hơn hay thấp hơn'),
      prompt: text(
        'Read the secret and a guess; print "higher", "lower" or "right".',
        'Đọc số bí mật và số đoán; in "higher", "lower" hoặc "right".',
      ),
      language: 'python',
      starterCode: 'secret, guess = map(int, input().split())\n',
      difficulty: 'medium',
      tests: [
        { name: 'higher', hidden: false, input: '7 3\n', expected: 'higher\n' },
        { name: 'right', hidden: true, input: '5 5\n', expected: 'right\n' },
      ],
    },
    price: 99_000,
  },
];
