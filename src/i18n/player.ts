/**
 * The player's English texts, added as the code that shows them is evaluated: the player's components and the
 * checkout's pass names import this module, so `t('player.…')` works wherever they render.
 */
import { addBundledTexts } from './index.js';
import { playerEn } from './player-en.js';

addBundledTexts('en', { player: playerEn });
