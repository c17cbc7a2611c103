/** The channel's catalog (src/stores/catalog.ts): the team pickers' choices. */
import { expect } from '@open-wc/testing';
import { teamChoices } from '../../../src/stores/catalog.js';

describe('team pickers (teamChoices)', () => {
  const all = [
    {
      id: 1,
      name: 'Sharks',
      children: [
        { id: 2, name: 'Sharks U21' },
        { id: 3, name: 'Sharks Reserves' },
      ],
    },
    { id: 2, name: 'Sharks U21' },
    { id: 3, name: 'Sharks Reserves' },
    { id: 4, name: 'Lakers' },
  ];
  const names = (choices: ReturnType<typeof teamChoices>) =>
    choices.map((c) => [c.team.name, c.children.map((t) => t.name)]);

  it('puts the offered teams of a team right under it, in the order offered', () => {
    expect(names(teamChoices(all, all))).to.deep.equal([
      ['Sharks', ['Sharks U21', 'Sharks Reserves']],
      ['Lakers', []],
    ]);
  });

  it('leaves out what is not offered; a child whose team is not offered stands alone', () => {
    expect(names(teamChoices([all[1]!, all[2]!, all[3]!], all))).to.deep.equal([
      ['Sharks U21', []],
      ['Sharks Reserves', []],
      ['Lakers', []],
    ]);
    expect(names(teamChoices([all[0]!, all[2]!], all))).to.deep.equal([['Sharks', ['Sharks Reserves']]]);
  });
});
