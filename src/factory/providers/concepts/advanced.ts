import { type Concept, t } from './concept';

/** Building larger programs: functions, debugging, dictionaries, algorithms and classes. */
export const ADVANCED: Concept[] = [
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
