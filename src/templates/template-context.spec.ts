import { readsProfile, templateContext } from './template-context.js';

describe('the render context’s recipient links', () => {
  it('gives preferences_url, with or without a profile; a var of the same name wins', () => {
    const links = { preferences_url: 'https://n.example/p/p1.j.x.y' };
    expect(templateContext({ a: 1 }, undefined, links)).toEqual({ preferences_url: links.preferences_url, a: 1 });
    expect(templateContext({ preferences_url: 'https://mine.example/prefs' }, undefined, links).preferences_url).toBe(
      'https://mine.example/prefs',
    );
    const profile = {
      id: 'u',
      email: null,
      phone: null,
      firstName: 'Ann',
      lastName: null,
      locale: null,
      timezone: null,
      data: {},
    };
    expect(templateContext({}, profile, links)).toMatchObject({
      preferences_url: links.preferences_url,
      first_name: 'Ann',
    });
  });

  it('renders a source naming preferences_url per recipient (the link is theirs)', () => {
    expect(readsProfile({ subject: null, body: 'Manage: {{ preferences_url }}', bodyHtml: null })).toBe(true);
    expect(readsProfile({ subject: null, body: 'Hello {{ name }}', bodyHtml: null })).toBe(false);
    // Plain text naming a field reads nothing: the batch keeps its one shared render.
    expect(
      readsProfile({
        subject: 'Your email receipt',
        body: 'This email was sent to {{ name }} by subscriber services.',
        bodyHtml: '<p>email</p>',
      }),
    ).toBe(false);
    expect(
      readsProfile({ subject: null, body: 'Hi {% if first_name %}{{ first_name }}{% endif %}', bodyHtml: null }),
    ).toBe(true);
  });
});
