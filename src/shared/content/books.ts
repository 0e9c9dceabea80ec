/**
 * The /books grid (spec §2, §3): a billionaire-themed spiritual and self-help
 * series plus one classic breath-science reprint. Titles and retailer ids
 * (ASINs) are fictional. Covers are paths on the configured cover origin
 * (site.bookCoverOrigin), joined at render so the origin stays configuration.
 */
import type { Book } from './books-types.ts';

/** A book by its retailer id (ASIN): its product page, and its cover's path on the cover origin. */
const book = (title: string, asin: string): Book => ({
  title,
  url: `https://www.amazon.com/dp/${asin}`,
  cover: `/images/${asin}.jpg`,
});

export const books: readonly Book[] = [
  book('The Billionaire Buddha: Awakening Abundance Through Stillness', 'B0BILL0001'),
  book('The Billionaire Buddha II: The Middle Way to Lasting Wealth', 'B0BILL0002'),
  book('The Billionaire Monk: Ten Silent Habits of Prosperous Minds', 'B0BILL0003'),
  book('The Billionaire Yogi: Breath, Balance and the Business of Joy', 'B0BILL0004'),
  book('The Billionaire Sage: Ancient Proverbs for Modern Fortune', 'B0BILL0005'),
  book('The Billionaire Mystic: Intuition as Your Greatest Asset', 'B0BILL0006'),
  book('The Billionaire Zen Master: Empty Mind, Full Life', 'B0BILL0007'),
  book('The Billionaire Lotus: Rising Above the Mud of Scarcity', 'B0BILL0008'),
  book('The Billionaire Pilgrim: A Journey from Debt to Devotion', 'B0BILL0009'),
  book('The Billionaire Shepherd: Leading Others to Inner Riches', 'B0BILL0010'),
  book('The Billionaire Healer: Mending Money Wounds with Compassion', 'B0BILL0011'),
  book('The Billionaire Meditator: Twenty Minutes a Day to Clarity', 'B0BILL0012'),
  book('The Billionaire Monk Returns: Renunciation and the Art of Receiving', 'B0BILL0013'),
  book('The Billionaire Buddha Workbook: 108 Exercises for Mindful Prosperity', 'B0BILL0014'),
  book('The Billionaire Heart: Generosity as a Spiritual Practice', 'B0BILL0015'),
  book('The Billionaire Sutra: Teachings on Desire and Detachment', 'B0BILL0016'),
  book('The Billionaire Temple: Building a Life That Shelters Others', 'B0BILL0017'),
  book('The Billionaire Hermit: Solitude, Focus and Quiet Success', 'B0BILL0018'),
  book('The Billionaire Guru: Lessons from the Mountain and the Market', 'B0BILL0019'),
  book('The Billionaire Bodhisattva: Wealth in the Service of All Beings', 'B0BILL0020'),
  book('The Billionaire Breath: Pranayama for Calm Decisions', 'B0BILL0021'),
  book('The Billionaire Prayer: Gratitude Rituals for Every Morning', 'B0BILL0022'),
  book('The Billionaire Karma: Cause, Effect and Compound Interest', 'B0BILL0023'),
  book('The Billionaire Dharma: Finding Your Purpose and Your Path', 'B0BILL0024'),
  book('The Billionaire Mandala: Designing a Balanced Life', 'B0BILL0025'),
  book('The Billionaire Samurai: Discipline, Honor and Prosperity', 'B0BILL0026'),
  book('The Billionaire Saint: Humility at the Top', 'B0BILL0027'),
  book('The Billionaire Alchemist: Turning Fear into Fortune', 'B0BILL0028'),
  book('The Billionaire Oracle: Reading the Signs of Opportunity', 'B0BILL0029'),
  book('The Billionaire Nomad: Freedom Beyond Possessions', 'B0BILL0030'),
  book('The Billionaire Gardener: Patience, Seeds and Harvest', 'B0BILL0031'),
  book('The Billionaire Warrior: Courage Without Conflict', 'B0BILL0032'),
  book('The Billionaire Child: Rediscovering Wonder and Play', 'B0BILL0033'),
  book('The Billionaire Teacher: Sharing Wisdom That Multiplies', 'B0BILL0034'),
  book('The Billionaire Retreat: A Seven-Day Silent Program', 'B0BILL0035'),
  book('The Billionaire Buddha for Couples: Shared Abundance, Shared Peace', 'B0BILL0036'),
  book('The Billionaire Buddha for Teens: Calm, Confidence and Kindness', 'B0BILL0037'),
  book('The Billionaire Journal: A Year of Reflections on Enough', 'B0BILL0038'),
  book('The Billionaire Mantra: Words That Rewire the Mind', 'B0BILL0039'),
  book('The Billionaire Chakra: Energy, Flow and Financial Health', 'B0BILL0040'),
  book('The Billionaire Tea Ceremony: Presence in Every Transaction', 'B0BILL0041'),
  book('The Billionaire River: Letting Money Flow Without Fear', 'B0BILL0042'),
  book('The Billionaire Sleep: Rest Deeply, Wake Richly', 'B0BILL0043'),
  book('The Billionaire Legacy: Leaving More Than Money Behind', 'B0BILL0044'),
  book('The Science of Breath: A Complete Manual of the Oriental Breathing Philosophy (Classic Reprint)', 'B0BREATH01'),
];
