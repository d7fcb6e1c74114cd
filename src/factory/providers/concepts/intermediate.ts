import { type Concept, t } from './concept';

/** Choosing and repeating: conditions, loops and lists. */
export const INTERMEDIATE: Concept[] = [
  {
    id: 'conditions',
    name: t('Making decisions with if', 'Ra quyết định với câu lệnh if'),
    explanation: t(
      'An if statement lets a program choose: when a condition is true one block of code runs, otherwise (else) another block runs. Conditions compare values, for example score >= 10.',
      'Câu lệnh if giúp chương trình lựa chọn: khi điều kiện đúng thì một khối lệnh chạy, ngược lại (else) thì khối lệnh khác chạy. Điều kiện so sánh các giá trị, ví dụ score >= 10.',
    ),
    analogy: t(
      'If it is raining, take an umbrella; otherwise, take a cap.',
      'Nếu trời mưa thì mang ô; nếu không thì đội mũ.',
    ),
    code: {
      python: 'score = 12\nif score >= 10:\n    print("You win!")\nelse:\n    print("Try again")',
      javascript:
        'const score = 12;\nif (score >= 10) {\n  console.log("You win!");\n} else {\n  console.log("Try again");\n}',
    },
    exercise: t(
      'Write a program that checks a number and prints "even" or "odd".',
      'Viết chương trình kiểm tra một số và in ra "chẵn" hoặc "lẻ".',
    ),
    questions: [
      {
        prompt: t(
          "With score = 7, what does \"if score >= 10: print('win') else: print('again')\" print?",
          "Với score = 7, \"if score >= 10: print('win') else: print('again')\" in ra gì?",
        ),
        answer: t('again', 'again'),
        wrong: [t('win', 'win'), t('Both words', 'Cả hai từ')],
        explanation: t(
          '7 is less than 10, so the condition is false and the else branch runs.',
          '7 nhỏ hơn 10 nên điều kiện sai và nhánh else được chạy.',
        ),
      },
      {
        prompt: t('What does else mean in an if statement?', 'else có nghĩa là gì trong câu lệnh if?'),
        answer: t('What to do when the condition is false', 'Việc cần làm khi điều kiện sai'),
        wrong: [t('Repeat forever', 'Lặp lại mãi mãi'), t('Stop the program', 'Dừng chương trình')],
        explanation: t(
          'The else block runs only when the if condition is not true.',
          'Khối else chỉ chạy khi điều kiện của if không đúng.',
        ),
      },
    ],
  },
  {
    id: 'loops',
    name: t('Loops', 'Vòng lặp'),
    explanation: t(
      'A loop repeats instructions. A for loop repeats a set number of times; a while loop repeats as long as a condition stays true. Loops save us from writing the same line again and again.',
      'Vòng lặp lặp lại các câu lệnh. Vòng lặp for lặp một số lần xác định; vòng lặp while lặp khi điều kiện còn đúng. Vòng lặp giúp ta không phải viết đi viết lại cùng một dòng.',
    ),
    analogy: t(
      'Like brushing each tooth in turn until all of them are clean.',
      'Giống như đánh lần lượt từng chiếc răng cho đến khi tất cả đều sạch.',
    ),
    code: {
      python: 'for i in range(3):\n    print("Jump", i + 1)',
      javascript: 'for (let i = 0; i < 3; i++) {\n  console.log("Jump", i + 1);\n}',
    },
    exercise: t(
      'Use a loop to print the numbers from 1 to 10, then change it to count down from 10 to 1.',
      'Dùng vòng lặp in các số từ 1 đến 10, sau đó sửa lại để đếm ngược từ 10 về 1.',
    ),
    questions: [
      {
        prompt: t('How many times does "for i in range(4)" repeat?', '"for i in range(4)" lặp lại bao nhiêu lần?'),
        answer: t('4', '4'),
        wrong: [t('3', '3'), t('5', '5'), t('Forever', 'Mãi mãi')],
        explanation: t(
          'range(4) gives 0, 1, 2 and 3: four values, so four repeats.',
          'range(4) cho ra 0, 1, 2 và 3: bốn giá trị nên lặp bốn lần.',
        ),
      },
      {
        prompt: t('When does a while loop stop?', 'Khi nào vòng lặp while dừng lại?'),
        answer: t('When its condition becomes false', 'Khi điều kiện của nó trở thành sai'),
        wrong: [t('After exactly ten turns', 'Sau đúng mười lần'), t('Never', 'Không bao giờ')],
        explanation: t(
          'A while loop checks its condition before each turn and stops when it is false.',
          'Vòng lặp while kiểm tra điều kiện trước mỗi lần lặp và dừng khi điều kiện sai.',
        ),
      },
    ],
  },
  {
    id: 'lists',
    name: t('Lists', 'Danh sách'),
    explanation: t(
      'A list keeps many values in order under one name. Each item has a position called an index, starting from 0. You can add items, read them and loop over all of them.',
      'Danh sách lưu nhiều giá trị theo thứ tự dưới một cái tên. Mỗi phần tử có một vị trí gọi là chỉ số, bắt đầu từ 0. Em có thể thêm phần tử, đọc chúng và duyệt qua tất cả.',
    ),
    analogy: t(
      'Like a row of numbered lockers, where the first locker has number 0.',
      'Giống như một dãy tủ có đánh số, trong đó tủ đầu tiên mang số 0.',
    ),
    code: {
      python: 'fruits = ["mango", "banana", "lychee"]\nfruits.append("durian")\nprint(fruits[0])  # mango',
      javascript:
        'const fruits = ["mango", "banana", "lychee"];\nfruits.push("durian");\nconsole.log(fruits[0]); // mango',
    },
    exercise: t(
      "Make a list of five classmates' names and print each one with a loop.",
      'Tạo danh sách tên năm bạn cùng lớp và in từng tên bằng vòng lặp.',
    ),
    questions: [
      {
        prompt: t(
          'In the list ["a", "b", "c"], what is at index 1?',
          'Trong danh sách ["a", "b", "c"], phần tử ở chỉ số 1 là gì?',
        ),
        answer: t('"b"', '"b"'),
        wrong: [t('"a"', '"a"'), t('"c"', '"c"')],
        explanation: t(
          'Indexes start at 0, so index 1 is the second item.',
          'Chỉ số bắt đầu từ 0 nên chỉ số 1 là phần tử thứ hai.',
        ),
      },
      {
        prompt: t('What is a list used for?', 'Danh sách dùng để làm gì?'),
        answer: t('Keeping many values in order', 'Lưu nhiều giá trị theo thứ tự'),
        wrong: [
          t('Keeping exactly one number', 'Chỉ lưu đúng một số'),
          t('Deciding between two choices', 'Chọn giữa hai lựa chọn'),
        ],
        explanation: t('A list groups many values under one name.', 'Danh sách gom nhiều giá trị dưới một tên.'),
      },
    ],
  },
];
