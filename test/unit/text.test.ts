import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../src/api/text.js';

describe('message body_text is derived from the HTML by tag collapsing, fit for reading', () => {
  it('paragraphs and breaks become lines; entities are decoded; tags go', () => {
    expect(htmlToText('<div><p>Hi&nbsp;Ben,</p><p>Tuesday &amp; Wednesday<br>work &lt;for&gt; me.</p></div>')).toBe(
      'Hi Ben,\nTuesday & Wednesday\nwork <for> me.',
    );
  });
  it('script and style blocks carry no text, but text hidden by styles is kept (it is not sanitised)', () => {
    expect(htmlToText('<style>p{color:red}</style><p>Hello</p><script>alert(1)</script><span style="display:none">hidden</span>')).toBe('Hello\nhidden');
  });
  it('runs of blank lines collapse', () => {
    expect(htmlToText('<p>a</p><p></p><p></p><p>b</p>')).toBe('a\n\nb');
  });
});
