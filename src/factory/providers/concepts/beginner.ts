import { type Concept, t } from './concept';

/** The first steps: a program, its values and what it reads and prints. */
export const BEGINNER: Concept[] = [
  {
    id: 'sequence',
    name: t('Programs and instructions', 'Chương trình và câu lệnh'),
    explanation: t(
      'A program is a list of instructions that the computer follows one after another, from top to bottom. The order matters: if you swap two steps, the result can change.',
      'Chương trình là một danh sách câu lệnh mà máy tính thực hiện lần lượt, từ trên xuống dưới. Thứ tự rất quan trọng: nếu đổi chỗ hai bước, kết quả có thể thay đổi.',
    ),
    analogy: t(
      'It is like a recipe: first crack the egg, then fry it, never the other way round.',
      'Giống như một công thức nấu ăn: đập trứng trước rồi mới rán, không bao giờ làm ngược lại.',
    ),
    code: {
      python: 'print("Hello!")\nprint("Let us learn to code.")',
      javascript: 'console.log("Hello!");\nconsole.log("Let us learn to code.");',
    },
    exercise: t(
      'Write a program that prints three lines: your name, your favourite colour and your favourite animal.',
      'Viết chương trình in ra ba dòng: tên của em, màu em thích và con vật em thích.',
    ),
    questions: [
      {
        prompt: t(
          'In which order does the computer run the lines of a simple program?',
          'Máy tính chạy các dòng của một chương trình đơn giản theo thứ tự nào?',
        ),
        answer: t('From top to bottom, one after another', 'Từ trên xuống dưới, lần lượt từng dòng'),
        wrong: [
          t('From bottom to top', 'Từ dưới lên trên'),
          t('All lines at the same moment', 'Tất cả các dòng cùng một lúc'),
          t('In a random order', 'Theo thứ tự ngẫu nhiên'),
        ],
        explanation: t(
          'Instructions run in sequence, in the order they are written.',
          'Các câu lệnh chạy tuần tự, theo đúng thứ tự được viết.',
        ),
      },
      {
        prompt: t('What is a program?', 'Chương trình là gì?'),
        answer: t('A list of instructions for a computer', 'Một danh sách câu lệnh cho máy tính'),
        wrong: [
          t('A picture on the screen', 'Một bức tranh trên màn hình'),
          t('A part of the keyboard', 'Một bộ phận của bàn phím'),
        ],
        explanation: t(
          'A program tells the computer, step by step, what to do.',
          'Chương trình cho máy tính biết phải làm gì, từng bước một.',
        ),
      },
    ],
  },
  {
    id: 'variables',
    name: t('Variables', 'Biến'),
    explanation: t(
      'A variable is a name that holds a value, such as a score or a player name. You can read the value later and change it while the program runs.',
      'Biến là một cái tên giữ một giá trị, ví dụ điểm số hay tên người chơi. Em có thể đọc lại giá trị đó và thay đổi nó trong khi chương trình chạy.',
    ),
    analogy: t(
      'A variable is like a labelled box: the label is the name, and what is inside is the value.',
      'Biến giống như một chiếc hộp có dán nhãn: nhãn là tên, còn thứ bên trong là giá trị.',
    ),
    code: {
      python: 'score = 0\nscore = score + 10\nprint(score)  # 10',
      javascript: 'let score = 0;\nscore = score + 10;\nconsole.log(score); // 10',
    },
    exercise: t(
      'Create a variable for the number of stars a player has, add 5 stars, then print the new number.',
      'Tạo một biến lưu số ngôi sao của người chơi, cộng thêm 5 ngôi sao rồi in ra số mới.',
    ),
    questions: [
      {
        prompt: t(
          'After score = 3 and then score = score + 2, what is the value of score?',
          'Sau score = 3 rồi score = score + 2, giá trị của score là bao nhiêu?',
        ),
        answer: t('5', '5'),
        wrong: [t('3', '3'), t('2', '2'), t('32', '32')],
        explanation: t(
          'The new value is the old value 3 plus 2, which is 5.',
          'Giá trị mới bằng giá trị cũ 3 cộng 2, tức là 5.',
        ),
      },
      {
        prompt: t('What does a variable do?', 'Biến dùng để làm gì?'),
        answer: t('It keeps a value under a name', 'Nó lưu một giá trị dưới một cái tên'),
        wrong: [t('It turns the computer off', 'Nó tắt máy tính'), t('It draws a picture', 'Nó vẽ một bức tranh')],
        explanation: t(
          'A variable gives a value a name so the program can use it again.',
          'Biến đặt tên cho một giá trị để chương trình có thể dùng lại.',
        ),
      },
    ],
  },
  {
    id: 'types',
    name: t('Numbers and text', 'Số và chuỗi ký tự'),
    explanation: t(
      'Values have types. Numbers can be added and multiplied; text (called a string) is written between quotes and can be joined together. "2" + "2" joins text, while 2 + 2 adds numbers.',
      'Mỗi giá trị có một kiểu. Số có thể cộng và nhân; văn bản (gọi là chuỗi) được viết trong dấu ngoặc kép và có thể nối với nhau. "2" + "2" là nối chuỗi, còn 2 + 2 là cộng số.',
    ),
    analogy: t(
      'Numbers are like coins you can count; text is like letters you can string into words.',
      'Số giống như những đồng xu em có thể đếm; chuỗi giống như các chữ cái em xâu lại thành từ.',
    ),
    code: {
      python: 'age = 11\nname = "Lan"\nprint(name + " is " + str(age))',
      javascript: 'const age = 11;\nconst name = "Lan";\nconsole.log(name + " is " + age);',
    },
    exercise: t(
      'Store your age as a number and your name as text, then print one sentence that uses both.',
      'Lưu tuổi của em dưới dạng số và tên dưới dạng chuỗi, rồi in ra một câu dùng cả hai.',
    ),
    questions: [
      {
        prompt: t('Which of these is a string (text)?', 'Giá trị nào sau đây là một chuỗi (văn bản)?'),
        answer: t('"hello"', '"xin chào"'),
        wrong: [t('42', '42'), t('3.5', '3.5')],
        explanation: t('Text values are written between quotes.', 'Giá trị văn bản được viết trong dấu ngoặc kép.'),
      },
      {
        prompt: t(
          'What is the result of "2" + "2" when both are strings?',
          'Kết quả của "2" + "2" là gì khi cả hai đều là chuỗi?',
        ),
        answer: t('"22"', '"22"'),
        wrong: [t('4', '4'), t('An error every time', 'Luôn luôn báo lỗi')],
        explanation: t('Adding two strings joins them side by side.', 'Cộng hai chuỗi sẽ nối chúng cạnh nhau.'),
      },
    ],
  },
  {
    id: 'input-output',
    name: t('Input and output', 'Nhập và xuất dữ liệu'),
    explanation: t(
      'Programs talk with people: input is what the user gives the program (for example typing their name), output is what the program shows back on the screen.',
      'Chương trình trò chuyện với con người: dữ liệu vào là thứ người dùng đưa cho chương trình (ví dụ gõ tên), dữ liệu ra là thứ chương trình hiển thị lại trên màn hình.',
    ),
    analogy: t(
      'Like a conversation: you ask a question (input) and get an answer (output).',
      'Giống như một cuộc trò chuyện: em hỏi một câu (vào) và nhận được câu trả lời (ra).',
    ),
    code: {
      python: 'name = input("What is your name? ")\nprint("Nice to meet you, " + name)',
      javascript: 'const name = prompt("What is your name?");\nalert("Nice to meet you, " + name);',
    },
    exercise: t(
      'Ask the user for their favourite food and answer with a friendly sentence that repeats it.',
      'Hỏi người dùng món ăn họ thích nhất và trả lời bằng một câu thân thiện nhắc lại món đó.',
    ),
    questions: [
      {
        prompt: t(
          'Showing a message on the screen is an example of...',
          'Hiển thị một thông báo trên màn hình là ví dụ của...',
        ),
        answer: t('Output', 'Dữ liệu ra'),
        wrong: [t('Input', 'Dữ liệu vào'), t('A variable name', 'Tên biến')],
        explanation: t(
          'Output is what the program gives back to the user.',
          'Dữ liệu ra là thứ chương trình trả lại cho người dùng.',
        ),
      },
      {
        prompt: t('Typing your name when a program asks for it is...', 'Gõ tên của em khi chương trình hỏi là...'),
        answer: t('Input', 'Dữ liệu vào'),
        wrong: [t('Output', 'Dữ liệu ra'), t('A loop', 'Một vòng lặp')],
        explanation: t(
          'Input is information the user gives to the program.',
          'Dữ liệu vào là thông tin người dùng đưa cho chương trình.',
        ),
      },
    ],
  },
];
