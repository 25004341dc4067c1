import { addBook, findBook } from './store.js';

export function main() {
  addBook({ isbn: '978-0132350884', title: 'Clean Code' });
  // TODO: read books from a file instead of hard-coding them
  console.log(findBook('978-0132350884'));
}
