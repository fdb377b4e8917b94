"""English-looking content for synthetic documents.

Everything is composed from small built-in word and phrase lists with a
numpy Generator, so the same generator state always yields the same text.
"""

SUBJECTS = [
    "The committee", "Our neighbour", "The new library", "A small bakery", "The city council",
    "Every visitor", "The old harbour", "Most of the students", "The research team",
    "A local farmer", "The museum", "Her younger brother", "The morning train",
    "The village school", "Our accountant", "The festival", "A retired engineer",
    "The hospital", "The river", "Several families", "The garden club", "The manager",
    "The weather service", "An independent bookshop", "The football team",
]

VERBS = [
    "reviewed", "announced", "opened", "repaired", "described", "welcomed", "measured",
    "postponed", "collected", "explained", "discovered", "organised", "questioned",
    "painted", "supported", "delivered", "improved", "recorded", "visited", "replaced",
    "planned", "noticed", "shared", "tested", "prepared",
]

OBJECTS = [
    "the annual budget", "a new reading room", "the broken fence", "the history of the town",
    "the results of the survey", "a list of simple rules", "the northern footpath",
    "several old photographs", "the price of fresh bread", "a plan for the summer",
    "the cost of heating", "the damaged roof", "a letter from the mayor", "the evening timetable",
    "the children's playground", "a collection of maps", "the water supply",
    "the opening hours", "a proposal for cheaper parking", "the quality of the soil",
    "the market square", "a set of wooden chairs", "the local newspaper", "the bridge over the canal",
]

ADVERBIALS = [
    "before the end of the month", "after a long discussion", "with unusual care",
    "during the winter holidays", "without any help", "in the early morning",
    "for the third time this year", "despite the heavy rain", "as soon as possible",
    "on behalf of the residents", "at the request of the board", "over the weekend",
    "in less than an hour", "with the help of volunteers", "at very short notice",
    "in front of a large crowd", "while the shops were closed", "under difficult conditions",
]

CLAUSES = [
    "which surprised almost everyone", "although nobody had asked for it",
    "because the old one was no longer safe", "so that more people could take part",
    "and the response was generally positive", "but the final decision was delayed",
    "and the details will be published next week", "since the demand had grown steadily",
    "and several questions remain open", "which had been discussed for years",
    "even though the weather was poor", "and most people seemed pleased with the result",
]

SHORT_SENTENCES = [
    "Nobody expected the change to happen so quickly.",
    "The work will continue until the end of the season.",
    "Tickets are available at the front desk.",
    "Further information can be found on the notice board.",
    "It was the first meeting of its kind in the region.",
    "Many residents attended and asked practical questions.",
    "A short report will follow in the spring.",
    "The plan is simple, but it requires patience.",
    "Everyone agreed that the situation had improved.",
    "There is still a great deal to be done.",
]

HEADINGS = [
    "Notes on the Spring Meeting", "A Short History of the Harbour", "Annual Report",
    "Changes to the Library Service", "Community Garden Update", "The New Timetable",
    "Minutes of the Residents' Association", "Letter to the Editor", "Report on Water Quality",
    "Plans for the Summer Festival", "Memorandum", "Results of the Village Survey",
]

BOOK_TITLES = [
    "The Quiet Harbour", "A Winter in the North", "Letters from the Valley",
    "The Clockmaker's Daughter", "Roads and Rivers", "The Long Summer",
]

FIRST_NAMES = [
    "Anna", "James", "Maria", "Thomas", "Sarah", "David", "Laura", "Michael", "Emma",
    "Daniel", "Olivia", "Peter", "Helen", "Robert", "Sophie", "Andrew", "Claire", "Martin",
]

LAST_NAMES = [
    "Miller", "Bennett", "Hughes", "Carter", "Fischer", "Morgan", "Turner", "Walsh",
    "Harper", "Lawson", "Reed", "Fletcher", "Collins", "Barker", "Hayes", "Palmer",
]

JOB_TITLES = [
    "Senior Architect", "Sales Manager", "Software Engineer", "Head of Marketing",
    "Project Coordinator", "Financial Advisor", "Chief Executive Officer", "Interior Designer",
    "Account Director", "Research Scientist", "Office Manager", "Physiotherapist",
]

COMPANY_WORDS = [
    ("Northfield", "Consulting"), ("Bluewater", "Design"), ("Greenway", "Logistics"),
    ("Redstone", "Partners"), ("Silverline", "Software"), ("Oakwood", "Studio"),
    ("Brightside", "Energy"), ("Harbour", "Architects"), ("Westbrook", "Finance"),
]

STREETS = [
    "High Street", "Mill Lane", "Station Road", "Church Street", "Park Avenue",
    "Queen's Road", "Market Place", "Victoria Street", "Elm Grove", "King Street",
]

CITIES = [
    ("Bristol", "BS1 4DJ"), ("Leeds", "LS2 7EH"), ("Oxford", "OX1 2JD"),
    ("Portland, OR", "97205"), ("Boston, MA", "02116"), ("Denver, CO", "80202"),
    ("York", "YO1 7HH"), ("Cambridge", "CB2 1TN"), ("Austin, TX", "78701"),
]

SHOPS = [
    "FRESH MARKET", "CORNER GROCERY", "THE COFFEE HOUSE", "GREEN VALLEY FOODS",
    "CITY HARDWARE", "BAKER & SONS", "SUNRISE PHARMACY", "MAIN STREET DELI",
]

ITEMS = [
    ("Whole milk 2L", 1.89), ("Sourdough bread", 3.20), ("Free range eggs", 2.75),
    ("Bananas", 1.15), ("Cheddar cheese", 4.30), ("Orange juice", 2.49),
    ("Pasta 500g", 0.99), ("Tomatoes", 1.80), ("Coffee beans", 7.95), ("Butter", 2.10),
    ("Green tea", 3.45), ("Olive oil", 6.99), ("Rice 1kg", 1.65), ("Apples", 2.30),
    ("Chocolate bar", 1.25), ("Yoghurt", 0.85), ("Dish soap", 1.99), ("Paper towels", 3.60),
    ("Cappuccino", 3.10), ("Croissant", 2.20), ("Batteries AA", 5.49), ("Light bulb", 4.15),
    ("Toothpaste", 2.65), ("Chicken breast", 6.40), ("Carrots", 0.95), ("Sparkling water", 0.79),
]

FORM_TITLES = [
    "Library Membership Application", "Change of Address Form", "Vehicle Parking Permit Request",
    "Volunteer Registration Form", "Equipment Loan Agreement", "Patient Registration Form",
]

FORM_FIELDS = [
    "Full name", "Date of birth", "Street address", "City", "Postcode", "Telephone",
    "Email address", "Occupation", "Emergency contact", "Membership number",
]

MONTHS = ["January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December"]


def pick(rng, items):
    """Return one element of `items` chosen with `rng`."""
    return items[int(rng.integers(len(items)))]


def sentence(rng):
    """Compose one English sentence from the phrase lists."""
    if rng.random() < 0.15:
        return pick(rng, SHORT_SENTENCES)
    parts = [pick(rng, SUBJECTS), pick(rng, VERBS), pick(rng, OBJECTS)]
    if rng.random() < 0.7:
        parts.append(pick(rng, ADVERBIALS))
    text = " ".join(parts)
    if rng.random() < 0.45:
        text += ", " + pick(rng, CLAUSES)
    return text + "."


def paragraph(rng, sentences=(3, 6)):
    """A paragraph of a random number of sentences in [lo, hi]."""
    n = int(rng.integers(sentences[0], sentences[1] + 1))
    return " ".join(sentence(rng) for _ in range(n))


def person(rng):
    """A random (first, last) name pair."""
    return pick(rng, FIRST_NAMES), pick(rng, LAST_NAMES)


def phone(rng):
    """A phone number in UK or US style."""
    if rng.random() < 0.5:
        return "+44 %d %03d %04d" % (rng.integers(20, 80), rng.integers(0, 1000), rng.integers(0, 10000))
    return "(%03d) %03d-%04d" % (rng.integers(201, 990), rng.integers(200, 1000), rng.integers(0, 10000))


def address(rng):
    """A postal address as (street line, city, postcode)."""
    city, code = pick(rng, CITIES)
    return "%d %s" % (rng.integers(1, 240), pick(rng, STREETS)), city, code


def date(rng):
    """A date written out, e.g. '14 March 2023'."""
    return "%d %s %d" % (rng.integers(1, 29), pick(rng, MONTHS), rng.integers(2019, 2025))
