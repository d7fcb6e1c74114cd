import type { Localized } from '../../kernel/localized';

export interface ConceptQuestion {
  prompt: Localized;
  answer: Localized;
  wrong: Localized[];
  explanation: Localized;
}

/** One idea of programming, as the offline generator teaches it, in both languages. */
export interface Concept {
  id: string;
  name: Localized;
  explanation: Localized;
  /** A picture from everyday life, for the youngest learners. */
  analogy: Localized;
  code: { python: string; javascript: string };
  exercise: Localized;
  questions: ConceptQuestion[];
}

const t = (en: string, vi: string): Localized => ({ en, vi });

/** In teaching order: a beginner course starts at the top, later levels further down. */
export const CONCEPTS: Concept[] = [
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
  {
    id: 'functions',
    name: t('Functions', 'Hàm'),
    explanation: t(
      'A function is a named block of code that does one job. You define it once and call it whenever you need it; parameters let you give it different values, and return gives a result back.',
      'Hàm là một khối lệnh có tên, làm một việc. Em định nghĩa hàm một lần và gọi nó bất cứ khi nào cần; tham số cho phép truyền các giá trị khác nhau, còn return trả kết quả về.',
    ),
    analogy: t(
      'Like a juice machine: put in fruit (parameters), get juice back (the return value).',
      'Giống như máy ép nước: cho trái cây vào (tham số), nhận lại nước ép (giá trị trả về).',
    ),
    code: {
      python: 'def area(width, height):\n    return width * height\n\nprint(area(3, 4))  # 12',
      javascript: 'function area(width, height) {\n  return width * height;\n}\nconsole.log(area(3, 4)); // 12',
    },
    exercise: t(
      'Write a function that takes a name and returns a greeting, then call it for three different names.',
      'Viết một hàm nhận vào một cái tên và trả về lời chào, rồi gọi hàm với ba tên khác nhau.',
    ),
    questions: [
      {
        prompt: t(
          'What does area(2, 5) return if area multiplies width by height?',
          'area(2, 5) trả về gì nếu hàm area nhân chiều rộng với chiều cao?',
        ),
        answer: t('10', '10'),
        wrong: [t('7', '7'), t('25', '25')],
        explanation: t(
          '2 times 5 is 10, and return hands that value back.',
          '2 nhân 5 bằng 10, và return trả giá trị đó về.',
        ),
      },
      {
        prompt: t('Why do we write functions?', 'Vì sao chúng ta viết hàm?'),
        answer: t('To reuse a piece of code by its name', 'Để dùng lại một đoạn mã bằng tên của nó'),
        wrong: [
          t('To make the program slower', 'Để chương trình chạy chậm hơn'),
          t('To delete variables', 'Để xóa các biến'),
        ],
        explanation: t(
          'A function is written once and can be called many times.',
          'Hàm được viết một lần và có thể gọi nhiều lần.',
        ),
      },
    ],
  },
  {
    id: 'debugging',
    name: t('Finding and fixing bugs', 'Tìm và sửa lỗi'),
    explanation: t(
      'A bug is a mistake in a program. Debugging means reading the error message, checking what each line really does (printing values helps) and changing one thing at a time until it works.',
      'Lỗi (bug) là một sai sót trong chương trình. Gỡ lỗi là đọc thông báo lỗi, kiểm tra từng dòng thực sự làm gì (in giá trị ra sẽ giúp ích) và sửa từng chỗ một cho đến khi chạy đúng.',
    ),
    analogy: t(
      'Like a detective following clues until the mystery is solved.',
      'Giống như một thám tử lần theo manh mối cho đến khi phá được vụ án.',
    ),
    code: {
      python: 'total = 0\nfor n in [1, 2, 3]:\n    total = total + n\n    print("after", n, "total is", total)',
      javascript:
        'let total = 0;\nfor (const n of [1, 2, 3]) {\n  total = total + n;\n  console.log("after", n, "total is", total);\n}',
    },
    exercise: t(
      "A friend's program should print 1 to 5 but prints 0 to 4. Find the line to change and fix it.",
      'Chương trình của một bạn cần in từ 1 đến 5 nhưng lại in từ 0 đến 4. Hãy tìm dòng cần sửa và sửa nó.',
    ),
    questions: [
      {
        prompt: t(
          'What is a good first step when a program shows an error?',
          'Bước đầu tiên nên làm khi chương trình báo lỗi là gì?',
        ),
        answer: t('Read the error message and the line it points to', 'Đọc thông báo lỗi và dòng mà nó chỉ tới'),
        wrong: [
          t('Delete the whole program', 'Xóa toàn bộ chương trình'),
          t('Restart the computer', 'Khởi động lại máy tính'),
        ],
        explanation: t(
          'The message usually says what went wrong and where.',
          'Thông báo lỗi thường cho biết sai ở đâu và sai gì.',
        ),
      },
      {
        prompt: t(
          'Why do programmers print values while debugging?',
          'Vì sao lập trình viên in giá trị ra khi gỡ lỗi?',
        ),
        answer: t('To see what the program really does at each step', 'Để thấy chương trình thực sự làm gì ở mỗi bước'),
        wrong: [
          t('To make the code longer', 'Để mã dài hơn'),
          t('Because it fixes bugs by itself', 'Vì việc đó tự sửa lỗi'),
        ],
        explanation: t(
          'Seeing the values shows where the program stops doing what you expect.',
          'Nhìn các giá trị giúp thấy chương trình bắt đầu làm sai ở đâu.',
        ),
      },
    ],
  },
  {
    id: 'dictionaries',
    name: t('Dictionaries and objects', 'Từ điển và đối tượng'),
    explanation: t(
      'A dictionary (an object in JavaScript) stores values by key instead of by position, such as a player\'s "name" and "level". You look a value up by its key.',
      'Từ điển (đối tượng trong JavaScript) lưu giá trị theo khóa thay vì theo vị trí, ví dụ "name" và "level" của một người chơi. Em tra cứu giá trị bằng khóa của nó.',
    ),
    analogy: t(
      'Like a phone book: you look up a name (the key) to find the number (the value).',
      'Giống như danh bạ: em tra một cái tên (khóa) để tìm số điện thoại (giá trị).',
    ),
    code: {
      python: 'player = {"name": "Minh", "level": 3}\nplayer["level"] += 1\nprint(player["name"], player["level"])',
      javascript:
        'const player = { name: "Minh", level: 3 };\nplayer.level += 1;\nconsole.log(player.name, player.level);',
    },
    exercise: t(
      'Describe your favourite book with a dictionary (title, author, pages) and print each part.',
      'Mô tả cuốn sách em thích bằng một từ điển (tên sách, tác giả, số trang) và in từng phần.',
    ),
    questions: [
      {
        prompt: t('How do you find a value in a dictionary?', 'Làm thế nào để tìm một giá trị trong từ điển?'),
        answer: t('By its key', 'Bằng khóa của nó'),
        wrong: [t('Only by its position number', 'Chỉ bằng số vị trí'), t('By guessing', 'Bằng cách đoán')],
        explanation: t(
          'Each value is stored under a key, and the key gets it back.',
          'Mỗi giá trị được lưu dưới một khóa, và khóa giúp lấy lại nó.',
        ),
      },
      {
        prompt: t(
          'In {"name": "An", "age": 12}, what is the value of "age"?',
          'Trong {"name": "An", "age": 12}, giá trị của "age" là gì?',
        ),
        answer: t('12', '12'),
        wrong: [t('"An"', '"An"'), t('"age"', '"age"')],
        explanation: t('The key "age" holds the value 12.', 'Khóa "age" giữ giá trị 12.'),
      },
    ],
  },
  {
    id: 'algorithms',
    name: t('Algorithms: searching and sorting', 'Thuật toán: tìm kiếm và sắp xếp'),
    explanation: t(
      'An algorithm is a precise recipe for solving a problem. Searching finds an item (checking items one by one, or halving a sorted list each time); sorting puts items in order so they are easier to use.',
      'Thuật toán là một cách giải chính xác cho một bài toán. Tìm kiếm giúp tìm một phần tử (xét lần lượt từng phần tử, hoặc chia đôi một danh sách đã sắp xếp mỗi lần); sắp xếp đặt các phần tử theo thứ tự để dễ dùng hơn.',
    ),
    analogy: t(
      'Finding a word in a dictionary by opening it in the middle and going left or right.',
      'Tìm một từ trong từ điển bằng cách mở ở giữa rồi lật sang trái hoặc phải.',
    ),
    code: {
      python: 'numbers = [8, 3, 5, 1]\nprint(sorted(numbers))  # [1, 3, 5, 8]\nprint(5 in numbers)     # True',
      javascript:
        'const numbers = [8, 3, 5, 1];\nconsole.log([...numbers].sort((a, b) => a - b)); // [1, 3, 5, 8]\nconsole.log(numbers.includes(5)); // true',
    },
    exercise: t(
      'Write a function that finds the largest number in a list without using max().',
      'Viết một hàm tìm số lớn nhất trong danh sách mà không dùng max().',
    ),
    questions: [
      {
        prompt: t('Why does binary search need a sorted list?', 'Vì sao tìm kiếm nhị phân cần danh sách đã sắp xếp?'),
        answer: t(
          'It decides which half to keep by comparing with the middle item',
          'Nó chọn giữ nửa nào bằng cách so sánh với phần tử ở giữa',
        ),
        wrong: [
          t('Sorted lists are shorter', 'Danh sách đã sắp xếp ngắn hơn'),
          t('It does not need one', 'Nó không cần'),
        ],
        explanation: t(
          'Only in a sorted list does the middle item tell us which half holds the target.',
          'Chỉ trong danh sách đã sắp xếp, phần tử giữa mới cho biết mục tiêu nằm ở nửa nào.',
        ),
      },
      {
        prompt: t('What is an algorithm?', 'Thuật toán là gì?'),
        answer: t('A precise step-by-step way to solve a problem', 'Một cách giải bài toán chính xác, từng bước một'),
        wrong: [
          t('A kind of computer screen', 'Một loại màn hình máy tính'),
          t('A programming language', 'Một ngôn ngữ lập trình'),
        ],
        explanation: t(
          'An algorithm is the method; a program is one way to write it down.',
          'Thuật toán là phương pháp; chương trình là một cách viết phương pháp đó ra.',
        ),
      },
    ],
  },
  {
    id: 'classes',
    name: t('Classes and objects', 'Lớp và đối tượng'),
    explanation: t(
      'A class is a blueprint that bundles data (attributes) and behaviour (methods). Each object made from the class has its own data but shares the same methods.',
      'Lớp là một bản thiết kế gói dữ liệu (thuộc tính) và hành vi (phương thức) lại với nhau. Mỗi đối tượng tạo từ lớp có dữ liệu riêng nhưng dùng chung các phương thức.',
    ),
    analogy: t(
      'A cookie cutter (the class) makes many cookies (objects), each with its own icing.',
      'Khuôn bánh (lớp) làm ra nhiều chiếc bánh (đối tượng), mỗi chiếc có lớp kem riêng.',
    ),
    code: {
      python:
        'class Pet:\n    def __init__(self, name):\n        self.name = name\n\n    def speak(self):\n        return self.name + " says hi"\n\nprint(Pet("Mimi").speak())',
      javascript:
        'class Pet {\n  constructor(name) {\n    this.name = name;\n  }\n  speak() {\n    return this.name + " says hi";\n  }\n}\nconsole.log(new Pet("Mimi").speak());',
    },
    exercise: t(
      'Write a class for a piggy bank with methods to add coins and to show the total.',
      'Viết một lớp cho chiếc heo đất với các phương thức bỏ thêm xu và hiển thị tổng số tiền.',
    ),
    questions: [
      {
        prompt: t('What is an object?', 'Đối tượng là gì?'),
        answer: t('One thing made from a class, with its own data', 'Một thứ được tạo từ lớp, có dữ liệu riêng'),
        wrong: [t('A loop that never ends', 'Một vòng lặp không bao giờ dừng'), t('A kind of error', 'Một loại lỗi')],
        explanation: t('Objects are instances of a class.', 'Đối tượng là các thể hiện của một lớp.'),
      },
      {
        prompt: t('What is a method?', 'Phương thức là gì?'),
        answer: t('A function that belongs to a class', 'Một hàm thuộc về một lớp'),
        wrong: [
          t('A variable outside any class', 'Một biến nằm ngoài mọi lớp'),
          t('A comment in the code', 'Một lời chú thích trong mã'),
        ],
        explanation: t(
          'Methods describe what the objects of a class can do.',
          'Phương thức mô tả những việc đối tượng của lớp có thể làm.',
        ),
      },
    ],
  },
];

/** Where each level starts in the teaching order. */
export const LEVEL_START = { beginner: 0, intermediate: 4, advanced: 7 } as const;

export const LEVEL_NAME = {
  beginner: t('beginner', 'cơ bản'),
  intermediate: t('intermediate', 'trung cấp'),
  advanced: t('advanced', 'nâng cao'),
} as const;
