const { marked } = require('marked');

const source = ['# Release notes', '', '* faster start-up', '* **fewer** dependencies', '', 'See [the docs](https://example.org).'].join('\n');
console.log(marked.parse(source));
