// The shell's stylesheet as text, for the server to write into each document (utils/shell-styles, decision 0020).
// Vite processes it as it does the `?url` file (minified in a build); the client bundle never holds it.
export { default as shellCss } from './app.css?inline';
