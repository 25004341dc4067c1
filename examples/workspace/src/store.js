// In-memory store of books.
const books = new Map();

export function addBook(book) {
  // TODO: validate the ISBN before storing
  books.set(book.isbn, book);
}

export function findBook(isbn) {
  return books.get(isbn);
}

export function removeBook(isbn) {
  // TODO: keep a history of removed books
  books.delete(isbn);
}
